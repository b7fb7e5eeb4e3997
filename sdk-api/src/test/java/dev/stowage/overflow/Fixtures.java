package dev.stowage.overflow;

import dev.stowage.KeySchema;
import dev.stowage.TableSpec;
import dev.stowage.internal.ItemAccess;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.spi.TableRef;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

/** Shared table, spec and item builders of the overflow tests. */
public final class Fixtures {
  private Fixtures() {}

  public static final TableRef TABLE = new TableRef("prod", "orders");

  /** Key pk (string) + sk (number); index byCat over "cat" (partition) and "rank" (sort). */
  public static final TableSpec SPEC =
      TableSpec.builder(
              "orders", KeySchema.of("pk", AttributeType.STRING, "sk", AttributeType.NUMBER))
          .index("byCat", List.of("cat"), List.of("rank"))
          .compressed("doc")
          .build();

  /** Random bytes of the given size (deterministic per seed). */
  public static Bytes randomBytes(int size, long seed) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return Bytes.wrap(b);
  }

  /** An item as the core would hand it over: user attributes plus reserved ones. */
  public static Item item(String pk, Map<String, AttributeValue> attrs) {
    Map<String, AttributeValue> m = new LinkedHashMap<>(attrs);
    m.put("pk", AttributeValue.of(pk));
    m.put("sk", TestLimits.num(1));
    return ItemAccess.ofStored(m);
  }

  /** One big binary attribute "payload" of {@code size} bytes, tagged with a version. */
  public static Item versioned(String pk, int version, int size) {
    Map<String, AttributeValue> m = new LinkedHashMap<>();
    m.put("payload", AttributeValue.of(randomBytes(size, version)));
    m.put("v", TestLimits.num(version));
    m.put("note", AttributeValue.of("version " + version));
    m.put("stowage:rq", AttributeValue.list(AttributeValue.of("req-" + version)));
    return item(pk, m);
  }

  /** The keys of every blob {@code store} holds. */
  public static Set<String> blobKeys(BlobStore store) {
    return store.list("").map(BlobStore.BlobInfo::key).collect(Collectors.toSet());
  }

  /**
   * The blob the item at {@code key} in {@code table} points to, as stored in {@code driver}: one
   * key, or none when the item is missing or holds everything inline.
   */
  public static Set<String> referencedBlobs(
      dev.stowage.memory.MemoryDriver driver,
      TableRef table,
      KeySchema keys,
      dev.stowage.item.Key key) {
    return driver
        .get(new dev.stowage.spi.TableLayout(table, keys, List.of()), key, true)
        .map(dev.stowage.spi.StoredItem::item)
        .flatMap(OverflowSweeper::referencedBlob)
        .stream()
        .collect(Collectors.toSet());
  }
}
