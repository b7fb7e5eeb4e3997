package dev.stowage.migrate.internal;

import dev.stowage.IntegrityException;
import dev.stowage.InvalidRequestException;
import dev.stowage.ItemTooLargeException;
import dev.stowage.RetryPolicy;
import dev.stowage.TableSpec;
import dev.stowage.item.CanonicalEncoding;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.migrate.Verification;
import dev.stowage.overflow.BlobStore;
import dev.stowage.overflow.StoredOverflow;
import dev.stowage.spi.Capability;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.SegmentPage;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * Scans both sides of a migration and compares per-item digests: in parallel segments where a side
 * scans in segments, else with one scan. Used by one thread (which starts its own readers).
 */
public final class Verifier {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Verifier.class);
  private static final int MAX_EXAMPLES = 20;
  private final RetryPolicy retry;
  private final TableSpec spec;
  private final TableSpec targetSpec;
  private final DriverLimits targetLimits;
  private final StorageDriver sourceDriver;
  private final BlobStore sourceBlobs;
  private final TableLayout sourceLayout;
  private final StorageDriver targetDriver;
  private final BlobStore targetBlobs;
  private final TableLayout targetLayout;

  /**
   * A verifier of one migration's two sides: each source item is compared with the target's as the
   * target should hold it, with the index values of {@code targetSpec} (held to {@code
   * targetLimits}).
   */
  public Verifier(
      RetryPolicy retry,
      TableSpec spec,
      TableSpec targetSpec,
      DriverLimits targetLimits,
      StorageDriver sourceDriver,
      BlobStore sourceBlobs,
      TableLayout sourceLayout,
      StorageDriver targetDriver,
      BlobStore targetBlobs,
      TableLayout targetLayout) {
    this.retry = retry;
    this.spec = spec;
    this.targetSpec = targetSpec;
    this.targetLimits = targetLimits;
    this.sourceDriver = sourceDriver;
    this.sourceBlobs = sourceBlobs;
    this.sourceLayout = sourceLayout;
    this.targetDriver = targetDriver;
    this.targetBlobs = targetBlobs;
    this.targetLayout = targetLayout;
  }

  /**
   * Scans both sides with pages of {@code pageSize} and compares them; a side that scans in
   * segments is read in {@code segments} segments by up to {@code parallelism} threads.
   */
  public Verification run(int pageSize, int parallelism, int segments) {
    Map<Key, String> source = new ConcurrentHashMap<>();
    long sourceCount =
        scan(
            sourceDriver,
            sourceBlobs,
            sourceLayout,
            pageSize,
            parallelism,
            segments,
            true,
            source::put);
    List<Key> examples = java.util.Collections.synchronizedList(new ArrayList<>());
    AtomicLong different = new AtomicLong();
    AtomicLong extra = new AtomicLong();
    long targetCount =
        scan(
            targetDriver,
            targetBlobs,
            targetLayout,
            pageSize,
            parallelism,
            segments,
            false,
            (key, digest) -> {
              String expected = source.remove(key);
              if (expected == null) {
                extra.incrementAndGet();
                example(examples, key);
              } else if (!expected.equals(digest)) {
                different.incrementAndGet();
                example(examples, key);
              }
            });
    source.keySet().stream().sorted().limit(MAX_EXAMPLES).forEach(k -> example(examples, k));
    Verification v =
        new Verification(
            sourceCount, targetCount, source.size(), extra.get(), different.get(), examples);
    LOG.info(
        "verified {} against {}: source {}, target {}, missing {}, extra {}, different {} -> {}",
        targetLayout.ref(),
        sourceLayout.ref(),
        v.sourceItems(),
        v.targetItems(),
        v.missing(),
        v.extra(),
        v.different(),
        v.ok() ? "OK" : "MISMATCH");
    return v;
  }

  private static void example(List<Key> examples, Key key) {
    synchronized (examples) {
      if (examples.size() < MAX_EXAMPLES) {
        examples.add(key);
      }
    }
  }

  /** Digests every item of one side into {@code sink}, which must be thread-safe. */
  private long scan(
      StorageDriver driver,
      BlobStore blobs,
      TableLayout layout,
      int pageSize,
      int parallelism,
      int segments,
      boolean asTarget,
      BiConsumer<Key, String> sink) {
    if (!driver.capabilities().contains(Capability.SEGMENTED_SCANS)) {
      return scan(driver, blobs, layout, pageSize, asTarget, sink);
    }
    List<ScanSegment> plan = retry.call(() -> driver.segments(layout, null, segments));
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.min(plan.size(), parallelism),
            r -> {
              Thread t = new Thread(r, "stowage-verify");
              t.setDaemon(true);
              return t;
            });
    try {
      List<Future<Long>> counts = new ArrayList<>();
      for (ScanSegment segment : plan) {
        counts.add(
            pool.submit(
                () -> {
                  long n = 0;
                  String checkpoint = null;
                  while (true) {
                    String at = checkpoint;
                    SegmentPage page =
                        retry.call(
                            () ->
                                driver.scanSegment(
                                    layout, new SegmentScan(segment, pageSize, at, true)));
                    for (StoredItem s : page.items()) {
                      sink.accept(
                          spec.keySchema().keyOf(s.item()),
                          digest(s.item(), blobs, layout.ref(), asTarget));
                      n++;
                    }
                    if (page.done()) {
                      return n;
                    }
                    checkpoint = page.checkpoint();
                  }
                }));
      }
      long total = 0;
      for (Future<Long> f : counts) {
        total += join(f);
      }
      return total;
    } finally {
      pool.shutdownNow();
    }
  }

  private static long join(Future<Long> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  private long scan(
      StorageDriver driver,
      BlobStore blobs,
      TableLayout layout,
      int pageSize,
      boolean asTarget,
      BiConsumer<Key, String> sink) {
    long n = 0;
    Key start = null;
    while (true) {
      Key from = start;
      QueryResult page =
          retry.call(() -> driver.scan(layout, new DriverScan(pageSize, from, true)));
      for (StoredItem s : page.items()) {
        Key key = spec.keySchema().keyOf(s.item());
        sink.accept(key, digest(s.item(), blobs, layout.ref(), asTarget));
        n++;
      }
      if (!page.more() || page.items().isEmpty()) {
        return n;
      }
      start = spec.keySchema().keyOf(page.items().get(page.items().size() - 1).item());
    }
  }

  /**
   * SHA-256 of the item's canonical encoding ({@link CanonicalEncoding}) with every overflowed
   * attribute put back (still in its stored, possibly encrypted form), so an item that overflowed
   * differently on the two sides (another backend's limits) still compares equal; with {@code
   * asTarget}, with the target's index values in place of its own. An item whose blob is missing or
   * unreadable, or whose index values the target cannot hold, digests to a value that matches
   * nothing.
   */
  private String digest(
      Item item, BlobStore blobs, dev.stowage.spi.TableRef ref, boolean asTarget) {
    Item whole = item;
    if (StoredOverflow.hasOverflow(item)) {
      if (blobs == null) {
        return "missing blob store";
      }
      try {
        whole = retry.call(() -> StoredOverflow.of(blobs).restore(ref, item));
      } catch (IntegrityException e) {
        return "unreadable blob: " + e.getMessage();
      }
    }
    if (asTarget) {
      try {
        whole = StoredItems.withIndexValues(targetSpec, targetLimits, whole);
      } catch (InvalidRequestException | ItemTooLargeException e) {
        return "not indexable on the target: " + e.getMessage();
      }
    }
    return java.util.HexFormat.of().formatHex(sha256().digest(CanonicalEncoding.encode(whole)));
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
