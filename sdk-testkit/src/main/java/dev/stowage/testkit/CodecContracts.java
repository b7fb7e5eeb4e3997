package dev.stowage.testkit;

import static dev.stowage.testkit.Helpers.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import dev.stowage.AttributePolicy;
import dev.stowage.IntegrityException;
import dev.stowage.InvalidRequestException;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.codec.Codecs;
import dev.stowage.codec.KeyProvider;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.overflow.BlobStore;
import dev.stowage.query.Condition;
import dev.stowage.query.Query;
import dev.stowage.query.ReadOptions;
import dev.stowage.query.Update;
import dev.stowage.query.WriteOptions;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Compressed and encrypted attributes: exact round trips, no plaintext of an encrypted attribute in
 * what the driver or the blob store holds, and no server-side comparison of ciphertext.
 */
abstract class CodecContracts extends Contract {
  private static final String SSN = "SSN-987-65-4321";
  private static final String CARD = "4111-1111-1111-1111";
  private static final String PIN = "PIN-2468-1357";
  private static final String PAYLOAD = "TOP-SECRET-PAYLOAD ";

  static Codecs codecsWithFreshKey() {
    return Codecs.builder().keys(KeyProvider.ofKeyset(freshKeyset())).build();
  }

  /** A new AES-256-GCM keyset, for stores that must share their keys. */
  static KeysetHandle freshKeyset() {
    try {
      AeadConfig.register();
      return KeysetHandle.generateNew(
          PredefinedAeadParameters.AES256_GCM, RegistryConfiguration.get());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot create a Tink keyset", e);
    }
  }

  static TableSpec spec() {
    return TableSpec.builder(
            "secrets", KeySchema.of("p", AttributeType.STRING, "s", AttributeType.NUMBER))
        .compressed("doc")
        .encrypted("ssn")
        .encrypted("profile")
        .policy("both", AttributePolicy.COMPRESSED_AND_ENCRYPTED)
        .index("byStatus", List.of("status"), List.of("s"))
        .build();
  }

  private Stowage storeWith(Codecs codecs, String namespace) {
    return kit().storeBuilder(namespace).codecs(codecs).build();
  }

  static Item secretItem(long s) {
    return Item.builder()
        .put("p", "c")
        .put("s", s)
        .put("status", "active")
        .put("note", "plain note")
        .put("doc", "compressible text ".repeat(2_000))
        .put("ssn", SSN)
        .put(
            "profile",
            AttributeValue.map(
                Map.of(
                    "card",
                    str(CARD),
                    "pins",
                    AttributeValue.list(str(PIN)),
                    "n",
                    Helpers.num(42))))
        .put("both", PAYLOAD.repeat(500))
        .build();
  }

  @Test
  void compressedAndEncryptedAttributesRoundTripExactly() {
    Table t = table(storeWith(codecsWithFreshKey(), kit().freshNamespace()), spec());
    List<AttributeValue> values =
        Generators.samples(Generators.values(), Math.max(50, scale().roundTripSamples() / 2), 99);
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      AttributeValue v = values.get(i);
      AttributeValue w = values.get(values.size() - 1 - i);
      items.add(
          Item.builder()
              .put("p", "gen")
              .put("s", i)
              .put("status", "active")
              .put("doc", v)
              .put("ssn", w)
              .put("profile", v)
              .put("both", w)
              .build());
    }
    items.add(secretItem(10_000).toBuilder().put("p", "gen").build());
    for (Item i : items) {
      t.put(i);
      assertThat(t.get(t.spec().keySchema().keyOf(i), ReadOptions.CONSISTENT)).contains(i);
    }
    Map<Key, Item> expected = new LinkedHashMap<>();
    items.forEach(i -> expected.put(t.spec().keySchema().keyOf(i), i));
    assertThat(t.batchGet(expected.keySet(), ReadOptions.CONSISTENT)).isEqualTo(expected);
    assertThat(t.queryAll(Query.partition("gen").limit(7).build()).toList())
        .containsExactlyElementsOf(items);
    assertThat(t.queryAll(Query.index("byStatus").partition(str("active")).build()).toList())
        .containsExactlyElementsOf(items);
    Item updated = t.update(Key.of("gen", 0), Update.builder().set("ssn", str(SSN)).build());
    assertThat(updated.getString("ssn")).isEqualTo(SSN);
    assertThat(t.get(Key.of("gen", 0), ReadOptions.CONSISTENT)).contains(updated);
  }

  @Test
  void valuesNestedToTheLimitRoundTripCompressedAndEncryptedAndDeeperOnesAreRefused() {
    Table t = table(storeWith(codecsWithFreshKey(), kit().freshNamespace()), spec());
    int max = AttributeValue.MAX_NESTING;
    AttributeValue text = str("compressible text ".repeat(20));
    AttributeValue astral =
        AttributeValue.map(
            Map.of("𝄞", text, "a𝄞b", Helpers.decimalSet(), "", str("empty key"), "__k", text));
    AttributeValue deepMaps = Helpers.nestedMaps(max - 1, astral);
    AttributeValue deepLists = Helpers.nestedLists(max - 1, astral);
    Item item =
        Item.builder()
            .put("p", "deep")
            .put("s", 1)
            .put("status", "active")
            .put("doc", deepMaps)
            .put("ssn", deepLists)
            .put("profile", deepMaps)
            .put("both", deepLists)
            .build();
    t.put(item);
    assertThat(t.get(Key.of("deep", 1), ReadOptions.CONSISTENT)).contains(item);
    assertThat(t.queryAll(Query.index("byStatus").partition(str("active")).build()).toList())
        .containsExactly(item);
    Item updated = t.update(Key.of("deep", 1), Update.builder().set("doc", deepLists).build());
    assertThat(t.get(Key.of("deep", 1), ReadOptions.CONSISTENT)).contains(updated);

    // Compressed and encrypted forms used to take 64 levels and more, then fail every read.
    for (int levels : List.of(max + 1, 65, 100)) {
      AttributeValue over = Helpers.nestedMaps(levels, text);
      for (String attribute : List.of("doc", "ssn", "profile", "both")) {
        Item bad = item.toBuilder().put("s", 2).put(attribute, over).build();
        assertThatThrownBy(() -> t.put(bad))
            .as("%d levels in %s", levels, attribute)
            .isInstanceOf(InvalidRequestException.class)
            .hasMessageContaining("'" + attribute + "'")
            .hasMessageContaining(String.valueOf(max));
        assertThatThrownBy(
                () -> t.update(Key.of("deep", 1), Update.builder().set(attribute, over).build()))
            .isInstanceOf(InvalidRequestException.class);
      }
    }
    assertThat(t.get(Key.of("deep", 2), ReadOptions.CONSISTENT)).isEmpty();
    assertThat(t.get(Key.of("deep", 1), ReadOptions.CONSISTENT)).contains(updated);
  }

  @Test
  void whatTheDriverStoresHoldsNoPlaintextOfEncryptedAttributes() {
    String ns = kit().freshNamespace();
    TableSpec spec = spec();
    Table t = table(storeWith(codecsWithFreshKey(), ns), spec);
    Item item = secretItem(1);
    t.put(item);
    TableLayout layout =
        new TableLayout(
            new TableRef(ns, spec.name()),
            spec.keySchema(),
            spec.indexes().stream().map(IndexLayout::of).toList());
    Item raw = driver().get(layout, Key.of("c", 1), true).orElseThrow().item();
    assertThat(raw.get("note"))
        .as("plain attributes are stored as they are")
        .isEqualTo(str("plain note"));
    for (String encrypted : List.of("ssn", "profile", "both")) {
      assertThat(raw.get(encrypted).type())
          .as(encrypted + " is stored as an envelope")
          .isEqualTo(AttributeType.BINARY);
    }
    assertThat(raw.get("doc").type()).isEqualTo(AttributeType.BINARY);
    assertThat(raw.getBinary("doc").size())
        .as("the compressed attribute is smaller than its text")
        .isLessThan(item.getString("doc").length() / 4);
    String everything = flatten(raw.attributes().values());
    for (String secret : List.of(SSN, CARD, PIN, PAYLOAD.trim())) {
      assertThat(everything).as("stored item").doesNotContain(secret);
    }
  }

  @Test
  void encryptedAttributesReachTheBlobStoreOnlyEncrypted() {
    String ns = kit().freshNamespace();
    Set<String> before = blobKeys();
    Table t = table(storeWith(codecsWithFreshKey(), ns), spec());
    long max = driver().limits().maxItemBytes();
    // Random bytes defeat compression, so the encrypted attribute itself must overflow.
    byte[] noise = new byte[(int) (2 * max)];
    new java.util.Random(5).nextBytes(noise);
    String secretText = PAYLOAD + java.util.Base64.getEncoder().encodeToString(noise);
    Item big = secretItem(2).toBuilder().put("both", secretText).build();
    t.put(big);
    assertThat(t.get(Key.of("c", 2), ReadOptions.CONSISTENT)).contains(big);
    Set<String> created = new HashSet<>(blobKeys());
    created.removeAll(before);
    assertThat(created).as("the item overflowed").isNotEmpty();
    for (String key : created) {
      byte[] blob = kit().fixture().blobStore().get(key).orElseThrow();
      String text = new String(blob, StandardCharsets.ISO_8859_1);
      for (String secret :
          List.of(SSN, CARD, PIN, PAYLOAD.trim(), secretText.substring(100, 200))) {
        assertThat(text).as("blob %s", key).doesNotContain(secret);
      }
    }
    t.delete(Key.of("c", 2));
  }

  private Set<String> blobKeys() {
    try (var s = kit().fixture().blobStore().list("")) {
      return s.map(BlobStore.BlobInfo::key).collect(Collectors.toSet());
    }
  }

  @Test
  void conditionsFiltersAndIndexesOnEncryptedAttributesAreRejected() {
    Table t = table(storeWith(codecsWithFreshKey(), kit().freshNamespace()), spec());
    Item item = secretItem(3);
    t.put(item);
    List<Condition> comparisons =
        List.of(
            Condition.eq("ssn", SSN),
            Condition.ne("ssn", str("x")),
            Condition.beginsWith("ssn", str("SSN")),
            Condition.contains("both", str("SECRET")),
            Condition.between("ssn", str("A"), str("Z")),
            Condition.and(
                Condition.exists("note"), Condition.eq("profile", AttributeValue.map(Map.of()))),
            Condition.or(Condition.exists("note"), Condition.lt("ssn", str("z"))),
            Condition.not(Condition.eq("both", "x")));
    for (Condition c : comparisons) {
      assertThatThrownBy(
              () -> t.put(item.toBuilder().put("note", "changed").build(), WriteOptions.when(c)))
          .as("put when %s", c)
          .isInstanceOf(InvalidRequestException.class);
      assertThatThrownBy(
              () ->
                  t.update(
                      Key.of("c", 3),
                      Update.builder().set("note", "changed").build(),
                      WriteOptions.when(c)))
          .as("update when %s", c)
          .isInstanceOf(InvalidRequestException.class);
      assertThatThrownBy(() -> t.delete(Key.of("c", 3), WriteOptions.when(c)))
          .as("delete when %s", c)
          .isInstanceOf(InvalidRequestException.class);
      assertThatThrownBy(() -> t.query(Query.partition("c").filter(c).build()))
          .as("filter %s", c)
          .isInstanceOf(InvalidRequestException.class);
    }
    assertThat(t.get(Key.of("c", 3), ReadOptions.CONSISTENT)).contains(item);
    assertThatThrownBy(
            () ->
                TableSpec.builder("bad", KeySchema.of("p", AttributeType.STRING))
                    .encrypted("ssn")
                    .index("bySsn", List.of("ssn"), List.of())
                    .build())
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void readingWithAWrongOrMissingKeyIsAnIntegrityError() {
    String ns = kit().freshNamespace();
    Table t = table(storeWith(codecsWithFreshKey(), ns), spec());
    t.put(secretItem(4));
    Table otherKey = storeWith(codecsWithFreshKey(), ns).ensureTable(spec());
    assertThatThrownBy(() -> otherKey.get(Key.of("c", 4), ReadOptions.CONSISTENT))
        .isInstanceOf(IntegrityException.class);
    Table noKeys = kit().storeBuilder(ns).build().ensureTable(spec());
    assertThatThrownBy(() -> noKeys.get(Key.of("c", 4), ReadOptions.CONSISTENT))
        .isInstanceOf(IntegrityException.class);
    assertThat(otherKey.get(Key.of("c", 4), new ReadOptions(Set.of("note"), true)))
        .as("a projection without encrypted attributes needs no key")
        .hasValueSatisfying(i -> assertThat(i.getString("note")).isEqualTo("plain note"));
  }

  /** Every string and every byte of the values, as one ISO-8859-1 string to search in. */
  private static String flatten(java.util.Collection<AttributeValue> values) {
    StringBuilder sb = new StringBuilder();
    for (AttributeValue v : values) {
      flatten(v, sb);
    }
    return sb.toString();
  }

  private static void flatten(AttributeValue v, StringBuilder sb) {
    if (v instanceof AttributeValue.StringValue s) {
      sb.append(s.value()).append('\n');
    } else if (v instanceof AttributeValue.BinaryValue b) {
      sb.append(new String(b.value().toByteArray(), StandardCharsets.ISO_8859_1)).append('\n');
    } else if (v instanceof AttributeValue.ListValue l) {
      l.values().forEach(x -> flatten(x, sb));
    } else if (v instanceof AttributeValue.MapValue m) {
      m.values()
          .forEach(
              (k, x) -> {
                sb.append(k).append('\n');
                flatten(x, sb);
              });
    } else if (v instanceof AttributeValue.StringSetValue ss) {
      ss.values().forEach(x -> sb.append(x).append('\n'));
    } else if (v instanceof AttributeValue.BinarySetValue bs) {
      bs.values()
          .forEach(
              x ->
                  sb.append(new String(x.toByteArray(), StandardCharsets.ISO_8859_1)).append('\n'));
    } else {
      sb.append(v).append('\n');
    }
  }
}
