package dev.stowage.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.crypto.tink.KeysetHandle;
import dev.stowage.AttributePolicy;
import dev.stowage.IntegrityException;
import dev.stowage.InvalidRequestException;
import dev.stowage.MaintenanceJob;
import dev.stowage.Stowage;
import dev.stowage.codec.Codecs;
import dev.stowage.codec.KeyProvider;
import dev.stowage.codec.PlaintextPolicy;
import dev.stowage.item.AttributeNames;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.query.ReadOptions;
import dev.stowage.query.Update;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.typed.Compressed;
import dev.stowage.typed.Encrypted;
import dev.stowage.typed.PartitionKey;
import dev.stowage.typed.TypedSchema;
import dev.stowage.typed.TypedTable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A typed class evolving towards encryption and away from it, on the backend under test: items an
 * earlier version of the class stored read exactly through the later one, a typed read-modify-write
 * stores the field in its new form and leaves every other attribute as it was, the re-encryption
 * job brings the items nobody rewrote into the new form, and a value the store may not trust or
 * cannot open is refused naming the item's key and the attribute.
 *
 * <p>Encryption happens in Stowage's core, so every backend must pass these unchanged. The steps
 * that add, remove and rename fields and compress one are in {@link TypedContracts}.
 */
abstract class TypedEvolutionContracts extends Contract {
  /** Appears in every secret value, so that no stored byte sequence may contain it. */
  private static final String MARKER = "CONFIDENTIAL-7731";

  private static final String IBAN = "GB33BUKB2020155555" + MARKER;

  private String namespace;
  private Codecs codecs;

  /** The keys, plaintext in encrypted attributes accepted: the migration window. */
  private Stowage migrating;

  /** The same keys, plaintext in encrypted attributes refused: the default policy. */
  private Stowage strict;

  /** No keys. */
  private Stowage keyless;

  @BeforeEach
  final void openStores() {
    namespace = kit().freshNamespace();
    KeysetHandle keys = CodecContracts.freshKeyset();
    codecs = Codecs.builder().keys(KeyProvider.ofKeyset(keys)).build();
    migrating =
        kit()
            .storeBuilder(namespace)
            .codecs(
                Codecs.builder()
                    .keys(KeyProvider.ofKeyset(keys))
                    .plaintextPolicy(PlaintextPolicy.ALLOW)
                    .build())
            .build();
    strict = kit().storeBuilder(namespace).codecs(codecs).build();
    keyless = kit().storeBuilder(namespace).build();
  }

  private static <T> TypedSchema<T> schema(Class<T> type, String table) {
    return TypedSchema.builder(type).tableName(table).build();
  }

  /** Creates the table as the first version of a class declares it; dropped after the test. */
  private <T> TypedTable<T> create(Class<T> type, String name) {
    table(migrating, schema(type, name).spec());
    return migrating.table(schema(type, name));
  }

  private static <T> TypedTable<T> open(Stowage in, Class<T> type, String name) {
    return in.table(schema(type, name));
  }

  /** The item exactly as the driver holds it, past every codec. */
  private Item stored(TypedTable<?> t, String id) {
    var spec = t.table().spec();
    TableLayout layout =
        new TableLayout(
            new TableRef(namespace, spec.name()),
            spec.keySchema(),
            spec.indexes().stream().map(IndexLayout::of).toList());
    return driver().get(layout, t.key(id), true).orElseThrow().item();
  }

  /** The item's attributes other than Stowage's own and those named. */
  private static Map<String, AttributeValue> others(Item item, String... except) {
    Map<String, AttributeValue> m = new TreeMap<>(item.attributes());
    m.keySet().removeIf(AttributeNames::isReserved);
    m.keySet().removeAll(List.of(except));
    return m;
  }

  /** An encryption envelope under the current primary key, with no plaintext in it. */
  private void assertEncrypted(AttributeValue stored) {
    assertThat(stored).isInstanceOf(AttributeValue.BinaryValue.class);
    assertThat(codecs.needsRewrite(AttributePolicy.PLAIN, stored))
        .as("an encrypted envelope")
        .isTrue();
    assertThat(codecs.needsRewrite(AttributePolicy.ENCRYPTED, stored))
        .as("under the current primary key")
        .isFalse();
    assertThat(TypedContracts.flatten(List.of(stored))).doesNotContain(MARKER);
  }

  /** A compression envelope (smaller than the text by far), not encrypted. */
  private void assertCompressedOnly(AttributeValue stored, String text) {
    assertThat(stored).isInstanceOf(AttributeValue.BinaryValue.class);
    assertThat(((AttributeValue.BinaryValue) stored).value().size()).isLessThan(text.length() / 4);
    assertThat(codecs.needsRewrite(AttributePolicy.PLAIN, stored)).as("not encrypted").isFalse();
  }

  private static void assertNamesKeyAndAttribute(Throwable e, String id, String attribute) {
    assertThat(e.getMessage()).contains("\"" + id + "\"").contains("'" + attribute + "'");
  }

  /** An account as an earlier release stored it: the IBAN in plain text. */
  record AccountV1(@PartitionKey String id, String owner, String iban, int balance) {}

  /** The IBAN declared encrypted. */
  record AccountV2(@PartitionKey String id, String owner, @Encrypted String iban, int balance) {}

  private static AccountV2 v2(AccountV1 a) {
    return new AccountV2(a.id(), a.owner(), a.iban(), a.balance());
  }

  @Test
  void aPlainFieldMadeEncryptedReadsOldItemsAndIsEncryptedByTheNextWrite() {
    TypedTable<AccountV1> v1 = create(AccountV1.class, "typedaccounts");
    Map<String, AccountV1> old = new LinkedHashMap<>();
    for (int i = 0; i < 5; i++) {
      AccountV1 a = new AccountV1("acct-" + i, "owner " + i, IBAN + i, 100 * i);
      v1.put(a);
      old.put(a.id(), a);
    }
    // Another service's attributes on one of them, which no version of the class maps.
    Update.Builder extra = Update.builder();
    TypedContracts.foreign().forEach(extra::set);
    v1.table().update(v1.key("acct-1"), extra.build());
    Map<String, Item> before = new LinkedHashMap<>();
    old.keySet().forEach(id -> before.put(id, stored(v1, id)));
    assertThat(before.get("acct-0").get("iban")).isEqualTo(AttributeValue.of(IBAN + 0));

    // In the migration window every old item reads exactly through the new class.
    TypedTable<AccountV2> v2 = open(migrating, AccountV2.class, "typedaccounts");
    for (AccountV1 a : old.values()) {
      assertThat(v2.get(v2.key(a.id()), ReadOptions.CONSISTENT)).as(a.id()).contains(v2(a));
    }
    // Outside it, plaintext where encryption is declared is refused (a planted value must not be
    // trusted), naming the item and the attribute.
    TypedTable<AccountV2> checked = open(strict, AccountV2.class, "typedaccounts");
    assertThatThrownBy(() -> checked.get(checked.key("acct-1"), ReadOptions.CONSISTENT))
        .isInstanceOf(IntegrityException.class)
        .satisfies(e -> assertNamesKeyAndAttribute(e, "acct-1", "iban"));

    // A typed read-modify-write encrypts the field and leaves every other attribute as it was,
    // the attributes of the other service included.
    AccountV2 read = v2.get(v2.key("acct-1"), ReadOptions.CONSISTENT).orElseThrow();
    v2.put(read);
    Item rewritten = stored(v2, "acct-1");
    assertEncrypted(rewritten.get("iban"));
    assertThat(others(rewritten, "iban")).isEqualTo(others(before.get("acct-1"), "iban"));
    assertThat(checked.get(checked.key("acct-1"), ReadOptions.CONSISTENT))
        .contains(v2(old.get("acct-1")));
    // A changed value is stored encrypted too.
    AccountV2 moved = new AccountV2("acct-2", "owner 2", "DE8937040044053201" + MARKER, 250);
    v2.put(moved);
    Item changed = stored(v2, "acct-2");
    assertEncrypted(changed.get("iban"));
    assertThat(changed.getLong("balance")).isEqualTo(250);
    assertThat(checked.get(checked.key("acct-2"), ReadOptions.CONSISTENT)).contains(moved);
    // Items nobody rewrote are exactly as they were.
    for (String id : List.of("acct-0", "acct-3", "acct-4")) {
      assertThat(stored(v2, id)).as(id).isEqualTo(before.get(id));
    }

    // The re-encryption job encrypts the rest, changing nothing else.
    MaintenanceJob.Progress job = v2.table().reencrypt(MaintenanceJob.Options.DEFAULT).run();
    assertThat(job.done()).isTrue();
    assertThat(job.scanned()).isEqualTo(5);
    assertThat(job.rewritten()).isEqualTo(3);
    for (String id : List.of("acct-0", "acct-3", "acct-4")) {
      Item item = stored(v2, id);
      assertEncrypted(item.get("iban"));
      assertThat(others(item, "iban")).as(id).isEqualTo(others(before.get(id), "iban"));
      assertThat(checked.get(checked.key(id), ReadOptions.CONSISTENT)).contains(v2(old.get(id)));
    }
    assertThat(v2.table().reencrypt(MaintenanceJob.Options.DEFAULT).run().rewritten()).isZero();
  }

  /** A document as an earlier release stored it: summary and body compressed. */
  record DocV1(
      @PartitionKey String id, String title, @Compressed String summary, @Compressed String body) {}

  /** The summary encrypted instead of compressed, the body compressed and encrypted. */
  record DocV2(
      @PartitionKey String id,
      String title,
      @Encrypted String summary,
      @Compressed @Encrypted String body) {}

  private static DocV2 v2(DocV1 d) {
    return new DocV2(d.id(), d.title(), d.summary(), d.body());
  }

  @Test
  void aCompressedFieldMadeEncryptedReadsOldEnvelopesAndIsEncryptedByTheNextWrite() {
    String summary = ("Quarterly figures, " + MARKER + "; ").repeat(20);
    String body = ("Board minutes, " + MARKER + ", not for circulation. ").repeat(60);
    TypedTable<DocV1> v1 = create(DocV1.class, "typeddocs");
    Map<String, DocV1> old = new LinkedHashMap<>();
    for (DocV1 d :
        List.of(
            new DocV1("d-both", "both", summary, body),
            new DocV1("d-summary", "summary only", summary, null),
            new DocV1("d-body", "body only", null, body),
            new DocV1("d-short", "too short to compress", MARKER, "brief " + MARKER))) {
      v1.put(d);
      old.put(d.id(), d);
    }
    Map<String, Item> before = new LinkedHashMap<>();
    old.keySet().forEach(id -> before.put(id, stored(v1, id)));
    assertCompressedOnly(before.get("d-both").get("summary"), summary);
    assertCompressedOnly(before.get("d-both").get("body"), body);
    assertThat(before.get("d-short").get("summary")).isEqualTo(AttributeValue.of(MARKER));

    TypedTable<DocV2> v2 = open(migrating, DocV2.class, "typeddocs");
    for (DocV1 d : old.values()) {
      assertThat(v2.get(v2.key(d.id()), ReadOptions.CONSISTENT)).as(d.id()).contains(v2(d));
    }
    // A compression envelope is not encryption: refused by default, naming item and attribute.
    TypedTable<DocV2> checked = open(strict, DocV2.class, "typeddocs");
    assertThatThrownBy(() -> checked.get(checked.key("d-summary"), ReadOptions.CONSISTENT))
        .isInstanceOf(IntegrityException.class)
        .satisfies(e -> assertNamesKeyAndAttribute(e, "d-summary", "summary"));
    assertThatThrownBy(() -> checked.get(checked.key("d-body"), ReadOptions.CONSISTENT))
        .isInstanceOf(IntegrityException.class)
        .satisfies(e -> assertNamesKeyAndAttribute(e, "d-body", "body"));

    v2.put(v2.get(v2.key("d-both"), ReadOptions.CONSISTENT).orElseThrow());
    Item rewritten = stored(v2, "d-both");
    // The summary is now encrypted and no longer compressed; the body both.
    assertEncrypted(rewritten.get("summary"));
    assertThat(((AttributeValue.BinaryValue) rewritten.get("summary")).value().size())
        .isGreaterThan(summary.length());
    assertEncrypted(rewritten.get("body"));
    assertThat(((AttributeValue.BinaryValue) rewritten.get("body")).value().size())
        .isLessThan(body.length() / 4);
    assertThat(others(rewritten, "summary", "body"))
        .isEqualTo(others(before.get("d-both"), "summary", "body"));
    assertThat(checked.get(checked.key("d-both"), ReadOptions.CONSISTENT))
        .contains(v2(old.get("d-both")));

    MaintenanceJob.Progress job = v2.table().reencrypt(MaintenanceJob.Options.DEFAULT).run();
    assertThat(job.done()).isTrue();
    assertThat(job.rewritten()).isEqualTo(3);
    for (String id : List.of("d-summary", "d-body", "d-short")) {
      Item item = stored(v2, id);
      DocV1 d = old.get(id);
      if (d.summary() != null) {
        assertEncrypted(item.get("summary"));
      }
      if (d.body() != null) {
        assertEncrypted(item.get("body"));
      }
      assertThat(others(item, "summary", "body"))
          .as(id)
          .isEqualTo(others(before.get(id), "summary", "body"));
      assertThat(checked.get(checked.key(id), ReadOptions.CONSISTENT)).contains(v2(d));
    }
  }

  /** A profile as an earlier release stored it: the PIN encrypted, the history compressed too. */
  record ProfileV1(
      @PartitionKey String id,
      String name,
      @Encrypted String pin,
      @Compressed @Encrypted String history) {}

  /** Encryption dropped: the PIN plain, the history only compressed. */
  record ProfileV2(@PartitionKey String id, String name, String pin, @Compressed String history) {}

  private static ProfileV2 v2(ProfileV1 p) {
    return new ProfileV2(p.id(), p.name(), p.pin(), p.history());
  }

  @Test
  void anEncryptedFieldMadePlainOrCompressedReadsOldCiphertextAndIsDecryptedByTheNextWrite() {
    String pin = "PIN-2468-" + MARKER;
    String history = ("Logged in from 10.0.0.7, " + MARKER + ". ").repeat(50);
    create(ProfileV1.class, "typedprofiles");
    TypedTable<ProfileV1> v1 = open(strict, ProfileV1.class, "typedprofiles");
    Map<String, ProfileV1> old = new LinkedHashMap<>();
    for (ProfileV1 p :
        List.of(
            new ProfileV1("p-both", "Ada", pin, history),
            new ProfileV1("p-pin", "Grace", pin, null),
            new ProfileV1("p-history", "Edsger", null, history))) {
      v1.put(p);
      old.put(p.id(), p);
    }
    Update.Builder extra = Update.builder();
    TypedContracts.foreign().forEach(extra::set);
    v1.table().update(v1.key("p-both"), extra.build());
    Map<String, Item> before = new LinkedHashMap<>();
    old.keySet().forEach(id -> before.put(id, stored(v1, id)));
    assertEncrypted(before.get("p-both").get("pin"));
    assertEncrypted(before.get("p-both").get("history"));

    // The stored envelope says how to read a value, whatever the class declares today.
    TypedTable<ProfileV2> v2 = open(strict, ProfileV2.class, "typedprofiles");
    for (ProfileV1 p : old.values()) {
      assertThat(v2.get(v2.key(p.id()), ReadOptions.CONSISTENT)).as(p.id()).contains(v2(p));
    }
    // Ciphertext still needs the keys, and a store without them names what it cannot open. In a
    // plain attribute an envelope that cannot be verified is data (another tool may store such
    // bytes), so the PIN's misfit is its type: binary where the class has a string.
    TypedTable<ProfileV2> noKeys = open(keyless, ProfileV2.class, "typedprofiles");
    assertThatThrownBy(() -> noKeys.get(noKeys.key("p-pin"), ReadOptions.CONSISTENT))
        .isInstanceOf(InvalidRequestException.class)
        .satisfies(e -> assertNamesKeyAndAttribute(e, "p-pin", "pin"));
    assertThatThrownBy(() -> noKeys.get(noKeys.key("p-history"), ReadOptions.CONSISTENT))
        .isInstanceOf(IntegrityException.class)
        .satisfies(e -> assertNamesKeyAndAttribute(e, "p-history", "history"));

    // A typed read-modify-write stores the PIN as plain text, as any tool would, and the history
    // compressed only; the other attributes stay as they were.
    v2.put(v2.get(v2.key("p-both"), ReadOptions.CONSISTENT).orElseThrow());
    Item rewritten = stored(v2, "p-both");
    assertThat(rewritten.get("pin")).isEqualTo(AttributeValue.of(pin));
    assertCompressedOnly(rewritten.get("history"), history);
    assertThat(others(rewritten, "pin", "history"))
        .isEqualTo(others(before.get("p-both"), "pin", "history"));
    assertThat(noKeys.get(noKeys.key("p-both"), ReadOptions.CONSISTENT))
        .contains(v2(old.get("p-both")));

    // The re-encryption job also decrypts ciphertext left in attributes no longer encrypted.
    MaintenanceJob.Progress job = v2.table().reencrypt(MaintenanceJob.Options.DEFAULT).run();
    assertThat(job.done()).isTrue();
    assertThat(job.rewritten()).isEqualTo(2);
    assertThat(stored(v2, "p-pin").get("pin")).isEqualTo(AttributeValue.of(pin));
    assertCompressedOnly(stored(v2, "p-history").get("history"), history);
    for (String id : List.of("p-pin", "p-history")) {
      assertThat(others(stored(v2, id), "pin", "history"))
          .as(id)
          .isEqualTo(others(before.get(id), "pin", "history"));
      assertThat(noKeys.get(noKeys.key(id), ReadOptions.CONSISTENT)).contains(v2(old.get(id)));
    }
  }

  /** A badge whose code was an encrypted string. */
  record BadgeV1(@PartitionKey String id, @Encrypted String code) {}

  /** The code now an encrypted number. */
  record BadgeV2(@PartitionKey String id, @Encrypted Long code) {}

  @Test
  void aDecryptedValueThatDoesNotFitTheNewClassNamesTheItemAndAttribute() {
    TypedTable<BadgeV1> v1 = create(BadgeV1.class, "typedbadges");
    v1.put(new BadgeV1("b-1", "not a number " + MARKER));
    TypedTable<BadgeV2> v2 = open(strict, BadgeV2.class, "typedbadges");
    assertThatThrownBy(() -> v2.get(v2.key("b-1"), ReadOptions.CONSISTENT))
        .isInstanceOf(InvalidRequestException.class)
        .satisfies(e -> assertNamesKeyAndAttribute(e, "b-1", "code"))
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(MARKER));
    // The item is as it was: the earlier class still reads it.
    assertThat(
            open(strict, BadgeV1.class, "typedbadges").get(v1.key("b-1"), ReadOptions.CONSISTENT))
        .contains(new BadgeV1("b-1", "not a number " + MARKER));
    assertEncrypted(stored(v1, "b-1").get("code"));
  }
}
