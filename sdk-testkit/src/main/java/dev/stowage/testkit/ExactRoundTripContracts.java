package dev.stowage.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.KeySchema;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.query.ReadOptions;
import dev.stowage.query.Update;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Exact round trips at the edges where real data lives: binary keys and plain binary values that
 * start with the envelope magic ({@code F5 53}) are stored and read byte for byte, whoever wrote
 * them.
 */
abstract class ExactRoundTripContracts extends Contract {
  private static final byte M0 = (byte) 0xF5;
  private static final byte M1 = 0x53;

  private static TableSpec binaryKeys() {
    return TableSpec.builder(
            "exactkeys", KeySchema.of("p", AttributeType.BINARY, "s", AttributeType.BINARY))
        .build();
  }

  private static TableSpec stringKeys() {
    return TableSpec.builder(
            "exactvals", KeySchema.of("p", AttributeType.STRING, "s", AttributeType.NUMBER))
        .build();
  }

  private TableLayout layout(TableSpec spec) {
    return new TableLayout(
        new TableRef(store.namespace(), spec.name()), spec.keySchema(), List.of());
  }

  /** Byte strings that start with the magic, as hashes and UUIDs do once in 65,536. */
  private static List<byte[]> magicBytes() {
    Random random = new Random(7);
    List<byte[]> out = new ArrayList<>();
    out.add(new byte[] {M0, M1});
    out.add(new byte[] {M0, M1, 0});
    out.add(new byte[] {M0, M1, 1, 0, 3, 3, M0, M1, 0}); // shaped like a no-op envelope
    for (int n : new int[] {4, 16, 32}) {
      byte[] b = new byte[n];
      random.nextBytes(b);
      b[0] = M0;
      b[1] = M1;
      out.add(b);
    }
    return out;
  }

  private static KeyValue bin(byte[] b) {
    return (KeyValue) AttributeValue.of(b);
  }

  @Test
  void binaryKeysThatStartWithTheEnvelopeMagicAreStoredByteForByte() {
    Table t = table(binaryKeys());
    List<Key> keys = new ArrayList<>();
    for (byte[] b : magicBytes()) {
      Key k = Key.of(bin(b), bin(b));
      keys.add(k);
      Item item = Item.builder().put("p", b).put("s", b).put("v", "x").build();
      t.put(item);
      assertThat(t.get(k, ReadOptions.CONSISTENT)).as("get %s", k).contains(item);
      Optional<StoredItem> stored = driver().get(layout(binaryKeys()), k, true);
      assertThat(stored).as("the driver finds %s under its own bytes", k).isPresent();
      assertThat(stored.get().item().find("p")).contains(AttributeValue.of(b));
      assertThat(stored.get().item().find("s")).contains(AttributeValue.of(b));
    }
    assertThat(Helpers.scanAll(t).stream().map(i -> t.spec().keySchema().keyOf(i)).toList())
        .containsExactlyInAnyOrderElementsOf(keys);
    for (Key k : keys) {
      assertThat(t.delete(k)).as("delete %s", k).isTrue();
      assertThat(t.get(k, ReadOptions.CONSISTENT)).isEmpty();
    }
  }

  @Test
  void plainBinaryValuesThatStartWithTheMagicAreStoredAsIs() {
    Table t = table(stringKeys());
    long s = 0;
    for (byte[] b : magicBytes()) {
      s++;
      Item item = Item.builder().put("p", "v").put("s", s).put("raw", b).build();
      t.put(item);
      assertThat(t.get(Key.of("v", s), ReadOptions.CONSISTENT)).contains(item);
      assertThat(driver().get(layout(stringKeys()), Key.of("v", s), true).orElseThrow().item())
          .as("stored as is, as another tool would see it")
          .extracting(i -> i.find("raw"))
          .isEqualTo(Optional.of(AttributeValue.of(b)));
    }
  }

  @Test
  void aBinaryValueAnotherToolWroteReadsAsIsAndSurvivesAnUpdate() {
    Table t = table(stringKeys());
    long s = 0;
    for (byte[] b : magicBytes()) {
      s++;
      Key k = Key.of("n", s);
      Item foreign = Item.builder().put("p", "n").put("s", s).put("raw", b).build();
      driver().put(layout(stringKeys()), foreign, Expectation.ANY, false);
      assertThat(t.get(k, ReadOptions.CONSISTENT)).as("read %s", k).contains(foreign);
      t.update(k, Update.builder().set("other", 1).build());
      assertThat(driver().get(layout(stringKeys()), k, true).orElseThrow().item().find("raw"))
          .as("kept byte for byte through an update")
          .contains(AttributeValue.of(b));
    }
  }

  @Test
  void attributesOtherToolsNameTheirWaySurviveEveryReadModifyWrite() {
    TableSpec plain = stringKeys();
    Table t = table(plain);
    // Names other tools give meaning to (AppSync's __typename) or that look like escapes.
    List<String> names = List.of("__typename", "__x__", "__", "_0_n", "~x", "stowage", "stowage_x");
    Item.Builder b = Item.builder().put("p", "o").put("s", 1);
    for (String n : names) {
      b.put(n, "value of " + n);
    }
    Item foreign = b.build();
    driver().put(layout(plain), foreign, Expectation.ANY, false);
    Key k = Key.of("o", 1);
    Item read = t.get(k, ReadOptions.CONSISTENT).orElseThrow();
    assertThat(read).as("every attribute reads as written").isEqualTo(foreign);

    t.update(k, Update.builder().set("other", 1).build());
    t.put(t.get(k, ReadOptions.CONSISTENT).orElseThrow().toBuilder().put("more", 2).build());
    Item stored = driver().get(layout(plain), k, true).orElseThrow().item();
    for (String n : names) {
      assertThat(stored.find(n)).as("%s after an update and a get-then-put", n).contains(str(n));
    }
    t.backfillIndexes(dev.stowage.MaintenanceJob.Options.DEFAULT).run();
    assertThat(t.get(k, ReadOptions.CONSISTENT).orElseThrow().find("__typename"))
        .as("after a backfill")
        .contains(str("__typename"));
  }

  private static AttributeValue str(String name) {
    return AttributeValue.of("value of " + name);
  }
}
