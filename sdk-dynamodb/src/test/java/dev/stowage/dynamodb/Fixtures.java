package dev.stowage.dynamodb;

import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** Table layouts and items for the driver tests. */
final class Fixtures {
  private static final AtomicInteger COUNTER = new AtomicInteger();

  private Fixtures() {}

  /** A unique logical table name. */
  static String uniqueName(String stem) {
    return stem + "-" + System.nanoTime() % 100000 + "-" + COUNTER.incrementAndGet();
  }

  /** A layout with a string partition key "pk" and the given sort key, plus indexes. */
  static TableLayout layout(
      String namespace, String table, AttributeType sortType, IndexLayout... indexes) {
    KeySchema ks =
        sortType == null
            ? KeySchema.of("pk", AttributeType.STRING)
            : KeySchema.of("pk", AttributeType.STRING, "sk", sortType);
    return new TableLayout(new TableRef(namespace, table), ks, Arrays.asList(indexes));
  }

  /** The layout of an index the core would use. */
  static IndexLayout index(String name, IndexSpec.Projection projection) {
    return IndexLayout.of(new IndexSpec(name, List.of("a"), List.of("b"), projection));
  }

  static Item item(String pk, Map<String, AttributeValue> rest) {
    Map<String, AttributeValue> m = new HashMap<>(rest);
    m.put("pk", AttributeValue.of(pk));
    return StoredItems.of(m);
  }

  static AttributeValue.BinaryValue bin(int... bytes) {
    byte[] b = new byte[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      b[i] = (byte) bytes[i];
    }
    return AttributeValue.of(Bytes.wrap(b));
  }
}
