package dev.stowage.overflow;

import dev.stowage.internal.OverflowHandler.Prepared;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.overflow.internal.BlobOverflow;
import java.nio.file.Path;
import java.util.Map;

/**
 * Run in a child JVM with a capped heap by {@link LargeItemHeapTest}: writes a 50 MiB item (a 30
 * MiB binary and a 20 MiB string) through overflow to a file blob store and reads it back. Exits 0
 * on success; an OutOfMemoryError makes it exit non-zero.
 */
public final class LargeItemProbe {
  static final int BINARY_BYTES = 30 << 20;
  static final int STRING_CHARS = 20 << 20;

  private LargeItemProbe() {}

  public static void main(String[] args) {
    FileBlobStore store = new FileBlobStore(Path.of(args[0]));
    BlobOverflow overflow = new BlobOverflow(store);
    String big = "abcdefghijklmnopqrstuvwxyz0123456789-_".repeat(STRING_CHARS / 38 + 1);
    big = big.substring(0, STRING_CHARS);
    Item item =
        Fixtures.item(
            "large",
            Map.of(
                "bin", AttributeValue.of(Fixtures.randomBytes(BINARY_BYTES, 7)),
                "text", AttributeValue.of(big)));
    big = null;
    Prepared p = overflow.prepare(Fixtures.TABLE, Fixtures.SPEC, TestLimits.dynamoLike(), item);
    if (p.blobKey() == null || p.item().has("bin") || p.item().has("text")) {
      throw new AssertionError("the large attributes did not move");
    }
    Item restored = overflow.restore(Fixtures.TABLE, p.item(), null);
    if (!restored.equals(item)) {
      throw new AssertionError("restored item differs");
    }
    System.out.println("OK " + Runtime.getRuntime().maxMemory());
  }
}
