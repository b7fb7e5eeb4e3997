package dev.stowage.cli.migrate;

import dev.stowage.RetryPolicy;
import dev.stowage.TableSpec;
import dev.stowage.cli.json.ItemJson;
import dev.stowage.cli.json.Json;
import dev.stowage.cli.migrate.internal.OverflowPointers;
import dev.stowage.internal.OverflowHandler;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.overflow.BlobStore;
import dev.stowage.overflow.internal.BlobOverflow;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Scans both sides of a migration and compares per-item digests. */
final class Verifier {
  private static final int MAX_EXAMPLES = 20;
  private final RetryPolicy retry;
  private final TableSpec spec;
  private final StorageDriver sourceDriver;
  private final BlobStore sourceBlobs;
  private final TableLayout sourceLayout;
  private final StorageDriver targetDriver;
  private final BlobStore targetBlobs;
  private final TableLayout targetLayout;

  Verifier(
      RetryPolicy retry,
      TableSpec spec,
      StorageDriver sourceDriver,
      BlobStore sourceBlobs,
      TableLayout sourceLayout,
      StorageDriver targetDriver,
      BlobStore targetBlobs,
      TableLayout targetLayout) {
    this.retry = retry;
    this.spec = spec;
    this.sourceDriver = sourceDriver;
    this.sourceBlobs = sourceBlobs;
    this.sourceLayout = sourceLayout;
    this.targetDriver = targetDriver;
    this.targetBlobs = targetBlobs;
    this.targetLayout = targetLayout;
  }

  Verification run(int pageSize) {
    Map<Key, String> source = new HashMap<>();
    long sourceCount = scan(sourceDriver, sourceBlobs, sourceLayout, pageSize, source::put);
    List<Key> examples = new ArrayList<>();
    long[] different = {0};
    long[] extra = {0};
    long targetCount =
        scan(
            targetDriver,
            targetBlobs,
            targetLayout,
            pageSize,
            (key, digest) -> {
              String expected = source.remove(key);
              if (expected == null) {
                extra[0]++;
                example(examples, key);
              } else if (!expected.equals(digest)) {
                different[0]++;
                example(examples, key);
              }
            });
    source.keySet().stream().sorted().limit(MAX_EXAMPLES).forEach(k -> example(examples, k));
    return new Verification(
        sourceCount, targetCount, source.size(), extra[0], different[0], examples);
  }

  private static void example(List<Key> examples, Key key) {
    if (examples.size() < MAX_EXAMPLES) {
      examples.add(key);
    }
  }

  private long scan(
      StorageDriver driver,
      BlobStore blobs,
      TableLayout layout,
      int pageSize,
      java.util.function.BiConsumer<Key, String> sink) {
    long n = 0;
    Key start = null;
    while (true) {
      Key from = start;
      QueryResult page =
          retry.call(() -> driver.scan(layout, new DriverScan(pageSize, from, true)));
      for (StoredItem s : page.items()) {
        Key key = spec.keySchema().keyOf(s.item());
        sink.accept(key, digest(s.item(), blobs, layout.ref()));
        n++;
      }
      if (!page.more() || page.items().isEmpty()) {
        return n;
      }
      start = spec.keySchema().keyOf(page.items().get(page.items().size() - 1).item());
    }
  }

  /**
   * SHA-256 of the item's canonical JSON with every overflowed attribute put back (still in its
   * stored, possibly encrypted form), so an item that overflowed differently on the two sides
   * (another backend's limits) still compares equal. An item whose blob is missing digests to a
   * value that matches nothing.
   */
  private String digest(Item item, BlobStore blobs, dev.stowage.spi.TableRef ref) {
    Item whole = item;
    if (item.has(OverflowPointers.ATTRIBUTE)) {
      if (blobs == null) {
        return "missing blob store";
      }
      try {
        whole = retry.call(() -> new BlobOverflow(blobs).restore(ref, item, null));
      } catch (OverflowHandler.BlobMissingException e) {
        return "missing blob";
      }
    }
    MessageDigest md = sha256();
    md.update(
        Json.write(ItemJson.toJson(whole, ItemJson.NumberStyle.NUMBER))
            .getBytes(StandardCharsets.UTF_8));
    return java.util.HexFormat.of().formatHex(md.digest());
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
