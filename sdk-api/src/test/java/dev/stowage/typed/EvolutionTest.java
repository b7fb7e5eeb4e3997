package dev.stowage.typed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import dev.stowage.IntegrityException;
import dev.stowage.MaintenanceJob;
import dev.stowage.Stowage;
import dev.stowage.codec.Codecs;
import dev.stowage.codec.KeyProvider;
import dev.stowage.codec.PlaintextPolicy;
import dev.stowage.item.Item;
import dev.stowage.memory.MemoryDriver;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A class changes while its table keeps the items written before: each step opens the same table
 * with the next version of the class and reads the old items.
 */
class EvolutionTest {
  private final Stowage store = TypedTableTest.store();

  record V1(@PartitionKey String id, String name, String nickname) {}

  /** Adds two fields. */
  record V2(
      @PartitionKey String id, String name, String nickname, Optional<String> email, int age) {}

  /** Removes a field. */
  record V3(@PartitionKey String id, String name) {}

  /** Renames a field, keeping the old name as an alias. */
  record V4(
      @PartitionKey String id, @Attribute(value = "fullName", aliases = "name") String name) {}

  /** Marks the renamed field compressed. */
  record V5(
      @PartitionKey String id,
      @Attribute(value = "fullName", aliases = "name") @Compressed String name) {}

  /** Marks the renamed field compressed and encrypted. */
  record V6(
      @PartitionKey String id,
      @Attribute(value = "fullName", aliases = "name") @Compressed @Encrypted String name) {}

  private <T> TypedTable<T> open(Class<T> type) {
    return store.ensureTable(TypedSchema.builder(type).tableName("people").build());
  }

  @Test
  void addingAFieldReadsOldItemsWithTheFieldAbsent() {
    open(V1.class).put(new V1("a", "Ada", "ada"));
    TypedTable<V2> v2 = open(V2.class);
    assertThat(v2.get(v2.key("a"))).contains(new V2("a", "Ada", "ada", Optional.empty(), 0));
  }

  @Test
  void removingAFieldReadsOldItemsWithoutIt() {
    open(V2.class).put(new V2("a", "Ada", "ada", Optional.of("ada@example.org"), 36));
    TypedTable<V3> v3 = open(V3.class);
    assertThat(v3.get(v3.key("a"))).contains(new V3("a", "Ada"));
    // Untouched by the read: the item still holds what the newer class does not map.
    assertThat(v3.table().get(v3.key("a")).orElseThrow().getString("email"))
        .isEqualTo("ada@example.org");
  }

  @Test
  void renamingWithAnAliasReadsTheOldNameAndWritesTheNewOne() {
    open(V3.class).put(new V3("a", "Ada"));
    TypedTable<V4> v4 = open(V4.class);
    assertThat(v4.get(v4.key("a"))).contains(new V4("a", "Ada"));
    v4.put(new V4("a", "Ada Lovelace"));
    Item raw = v4.table().get(v4.key("a")).orElseThrow();
    assertThat(raw.getString("fullName")).isEqualTo("Ada Lovelace");
    assertThat(raw.has("name")).isFalse();
  }

  @Test
  void makingAFieldCompressedStillReadsPlainOldItems() {
    open(V4.class).put(new V4("old", "Ada"));
    open(V3.class).put(new V3("older", "Grace"));
    TypedTable<V5> v5 = open(V5.class);
    assertThat(v5.table().spec().policy("fullName").compressed()).isTrue();
    assertThat(v5.get(v5.key("old"))).contains(new V5("old", "Ada"));
    assertThat(v5.get(v5.key("older"))).contains(new V5("older", "Grace"));
    String longName = "Augusta Ada King, Countess of Lovelace ".repeat(40);
    v5.put(new V5("new", longName));
    assertThat(v5.get(v5.key("new"))).contains(new V5("new", longName));
    // The previous class still reads the new item: the value's envelope says how it is stored.
    TypedTable<V4> v4 = open(V4.class);
    assertThat(v4.get(v4.key("new"))).contains(new V4("new", longName));
  }

  @Test
  void makingAFieldEncryptedReadsPlainOldItemsWhileThePlaintextPolicyAllowsThem() throws Exception {
    KeysetHandle keys = KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM);
    MemoryDriver driver = MemoryDriver.create();
    Stowage migrating =
        Stowage.builder(driver)
            .codecs(
                Codecs.builder()
                    .keys(KeyProvider.ofKeyset(keys))
                    .plaintextPolicy(PlaintextPolicy.ALLOW)
                    .build())
            .build();
    Stowage strict =
        Stowage.builder(driver)
            .codecs(Codecs.builder().keys(KeyProvider.ofKeyset(keys)).build())
            .build();
    TypedSchema<V4> v4 = TypedSchema.builder(V4.class).tableName("people").build();
    TypedSchema<V6> v6 = TypedSchema.builder(V6.class).tableName("people").build();
    migrating.ensureTable(v4).put(new V4("old", "Ada"));
    TypedTable<V6> table = migrating.ensureTable(v6);
    assertThat(table.get(table.key("old"))).contains(new V6("old", "Ada"));
    table.put(new V6("new", "Grace"));
    assertThat(table.get(table.key("new"))).contains(new V6("new", "Grace"));
    // Stowage's downgrade protection: by default a plaintext value where encryption is declared
    // is refused, naming the key and attribute, until the re-encryption job (run while the
    // policy still allows plaintext) has encrypted it.
    TypedTable<V6> strictTable = strict.table(v6);
    assertThat(strictTable.get(strictTable.key("new"))).contains(new V6("new", "Grace"));
    assertThatThrownBy(() -> strictTable.get(strictTable.key("old")))
        .isInstanceOf(IntegrityException.class)
        .hasMessageContaining("fullName");
    table.table().reencrypt(MaintenanceJob.Options.DEFAULT).run();
    assertThat(strictTable.get(strictTable.key("old"))).contains(new V6("old", "Ada"));
  }
}
