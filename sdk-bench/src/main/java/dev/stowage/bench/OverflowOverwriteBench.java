package dev.stowage.bench;

import dev.stowage.item.Item;
import dev.stowage.overflow.BlobStore;
import dev.stowage.overflow.FileBlobStore;
import dev.stowage.overflow.MemoryBlobStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue 17: overwriting a 1 MB item that overflows, put only (no read back): Stowage ({@code
 * stowage}: a fresh blob, the item pointing to it, the replaced item's blob released) against the
 * same bytes by hand with the SHA-256 Stowage stores ({@code byHandSha256}: the body put as a blob
 * under a key derived from the item key, overwriting the previous blob in place, then the item
 * naming it). The hand-written side does the least any overflow scheme must do; overwriting a blob
 * in place is not crash-safe (a failed item write leaves the old item pointing to the new body),
 * which Stowage's fresh blob per version is. Both sides on {@link dev.stowage.memory.MemoryDriver}
 * with a {@link MemoryBlobStore} or a {@link FileBlobStore} in a temporary directory. Target:
 * Stowage at most 1.2 times the hand-written time, no blob left behind.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx1g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class OverflowOverwriteBench {
  @Param({"1048576"})
  public int size;

  @Param({"memory", "file"})
  public String blobStore;

  private Path dir;
  private OverflowSides.Side stowage;
  private OverflowSides.Side byHand;
  private Item first;
  private Item second;
  private boolean flip;

  /** Creates both sides' stores and two versions of the item, and checks both sides. */
  @Setup
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("stowage-overwrite-bench");
    stowage = OverflowSides.stowage(store("stowage"));
    byHand = OverflowSides.byHand(true, store("by-hand"));
    first = OverflowSides.document("doc-1", Payloads.filled(size));
    byte[] other = Payloads.filled(size);
    other[0] ^= 1;
    second = OverflowSides.document("doc-1", other);
    for (Item item : new Item[] {first, second}) {
      stowage.put(item);
      byHand.put(item);
      if (!stowage.get("doc-1").equals(item) || !byHand.get("doc-1").equals(item)) {
        throw new IllegalStateException("round trip changed the item");
      }
    }
    if (stowage.blobCount() != 1 || byHand.blobCount() != 1) {
      throw new IllegalStateException("an overwrite left a blob behind or wrote none");
    }
  }

  private BlobStore store(String name) {
    return blobStore.equals("file") ? new FileBlobStore(dir.resolve(name)) : new MemoryBlobStore();
  }

  /** Checks that no overwrite left a blob behind, and removes the directory. */
  @TearDown
  public void tearDown() throws IOException {
    int left = stowage.blobCount();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(OverflowOverwriteBench::delete);
    }
    if (left != 1) {
      throw new IllegalStateException("Stowage left " + left + " blobs for one item");
    }
  }

  private static void delete(Path p) {
    try {
      Files.delete(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private Item next() {
    flip = !flip;
    return flip ? first : second;
  }

  @Benchmark
  public Item stowage() {
    Item item = next();
    stowage.put(item);
    return item;
  }

  @Benchmark
  public Item byHandSha256() {
    Item item = next();
    byHand.put(item);
    return item;
  }
}
