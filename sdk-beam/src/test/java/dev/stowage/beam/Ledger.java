package dev.stowage.beam;

import static dev.stowage.item.AttributeType.NUMBER;
import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import dev.stowage.KeySchema;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.codec.Codecs;
import dev.stowage.codec.KeyProvider;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Query;
import java.math.BigDecimal;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * The table the pipeline tests copy: compressed, encrypted and overflowed attributes (a 500 KB
 * attachment overflows on every backend) and a two-column index; the pipeline never holds the keys,
 * the test checks the copy with them.
 */
final class Ledger {
  static final TableSpec SPEC =
      TableSpec.builder("ledger", KeySchema.of("account", STRING, "seq", NUMBER))
          .index("byDay", List.of("day"), List.of("seq"))
          .compressed("memo")
          .encrypted("iban")
          .compressed("attachment")
          .encrypted("attachment")
          .build();

  static final int ATTACHMENT_EVERY = 250;

  private static Codecs codecs;

  private Ledger() {}

  /** Codecs with one key for the whole test run (the openers in workers reach it statically). */
  static synchronized Codecs codecs() {
    if (codecs == null) {
      try {
        AeadConfig.register();
        codecs =
            Codecs.builder()
                .keys(
                    KeyProvider.ofKeyset(
                        KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM)))
                .build();
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(e);
      }
    }
    return codecs;
  }

  static List<Item> items(int n) {
    Random random = new Random(5);
    List<Item> items = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Item.Builder b =
          Item.builder()
              .put("account", "acct-" + (i % 37))
              .put("seq", i)
              .put("amount", new BigDecimal(i + ".25"))
              .put("memo", "transfer for invoice " + i + " ".repeat(60))
              .put("iban", "DE" + (1_000_000 + i));
      if (i % 3 != 0) {
        b.put("day", "2026-11-" + (10 + i % 20)); // a third of the items are not in the index
      }
      if (i % ATTACHMENT_EVERY == 7) {
        byte[] attachment = new byte[500_000];
        random.nextBytes(attachment);
        b.put("attachment", attachment);
      }
      items.add(b.build());
    }
    return items;
  }

  static void write(Table table, List<Item> items) {
    for (int i = 0; i < items.size(); i += 25) {
      table.batchPut(items.subList(i, Math.min(items.size(), i + 25)));
    }
  }

  /**
   * Checks, with the keys, that {@code target} holds exactly {@code items} and that its index
   * answers every day's query with exactly the items of that day.
   */
  static void assertHoldsExactly(Table target, List<Item> items) {
    Map<Key, Item> expected = new TreeMap<>();
    for (Item i : items) {
      expected.put(SPEC.keySchema().keyOf(i), i);
    }
    List<Key> keys = new ArrayList<>(expected.keySet());
    Map<Key, Item> found = new TreeMap<>();
    for (int i = 0; i < keys.size(); i += 100) {
      found.putAll(target.batchGet(keys.subList(i, Math.min(keys.size(), i + 100))));
    }
    assertThat(found).hasSameSizeAs(expected);
    expected.forEach((k, v) -> assertThat(found.get(k)).as("item " + k).isEqualTo(v));
    long all = 0;
    dev.stowage.query.Page page = target.scan(dev.stowage.query.Scan.all().withLimit(500));
    while (true) {
      all += page.size();
      if (!page.hasAfter() || page.isEmpty()) {
        break;
      }
      page = target.page(page.after().orElseThrow());
    }
    assertThat(all).as("items on the target").isEqualTo(items.size());
    Map<String, List<Item>> byDay = new TreeMap<>();
    for (Item i : items) {
      i.find("day")
          .ifPresent(d -> byDay.computeIfAbsent(i.getString("day"), x -> new ArrayList<>()).add(i));
    }
    for (var e : byDay.entrySet()) {
      List<Item> entries =
          target
              .queryAll(Query.index("byDay").partition(AttributeValue.of(e.getKey())).build())
              .toList();
      assertThat(entries).as("index byDay, day " + e.getKey()).hasSameSizeAs(e.getValue());
      assertThat(entries).containsExactlyInAnyOrderElementsOf(e.getValue());
    }
  }
}
