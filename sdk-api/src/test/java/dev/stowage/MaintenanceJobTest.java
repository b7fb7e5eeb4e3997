package dev.stowage;

import static dev.stowage.item.AttributeType.NUMBER;
import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.query.Query;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MaintenanceJobTest {

  @Test
  void reencryptionMovesEveryValueToTheNewPrimaryKey() throws Exception {
    com.google.crypto.tink.aead.AeadConfig.register();
    var oldKeys =
        com.google.crypto.tink.KeysetHandle.generateNew(
            com.google.crypto.tink.aead.PredefinedAeadParameters.AES256_GCM);
    var rotated =
        com.google.crypto.tink.KeysetHandle.newBuilder(oldKeys)
            .addEntry(
                com.google.crypto.tink.KeysetHandle.generateEntryFromParameters(
                        com.google.crypto.tink.aead.PredefinedAeadParameters.AES256_GCM)
                    .withRandomId()
                    .makePrimary())
            .build();
    var newOnlyBuilder = com.google.crypto.tink.KeysetHandle.newBuilder(rotated);
    newOnlyBuilder.getAt(0).setStatus(com.google.crypto.tink.KeyStatus.DISABLED);
    var newOnly = newOnlyBuilder.build();
    MemoryDriver driver = MemoryDriver.create();
    TableSpec spec =
        TableSpec.builder("secrets", KeySchema.of("id", STRING)).encrypted("s").build();
    Table before =
        Stowage.builder(driver)
            .codecs(
                dev.stowage.codec.Codecs.builder()
                    .keys(dev.stowage.codec.KeyProvider.ofKeyset(oldKeys))
                    .build())
            .build()
            .ensureTable(spec);
    for (int i = 0; i < 30; i++) {
      before.put(Item.builder().put("id", "k" + i).put("s", "secret " + i).build());
    }
    Table during =
        Stowage.builder(driver)
            .codecs(
                dev.stowage.codec.Codecs.builder()
                    .keys(dev.stowage.codec.KeyProvider.ofKeyset(rotated))
                    .build())
            .build()
            .ensureTable(spec);
    MaintenanceJob.Progress p = during.reencrypt(MaintenanceJob.Options.DEFAULT).run();
    assertThat(p.rewritten()).isEqualTo(30);
    assertThat(during.reencrypt(MaintenanceJob.Options.DEFAULT).run().rewritten()).isZero();
    Table after =
        Stowage.builder(driver)
            .codecs(
                dev.stowage.codec.Codecs.builder()
                    .keys(dev.stowage.codec.KeyProvider.ofKeyset(newOnly))
                    .build())
            .build()
            .ensureTable(spec);
    assertThat(after.get(dev.stowage.item.Key.of("k7")).orElseThrow().getString("s"))
        .isEqualTo("secret 7");
    assertThat(before.reencrypt(MaintenanceJob.Options.DEFAULT.asDryRun()).run().rewritten())
        .isEqualTo(30);
  }

  private final Stowage store = Stowage.builder(MemoryDriver.create()).build();
  private final KeySchema keys = KeySchema.of("user", STRING, "at", NUMBER);

  @Test
  void backfillMakesExistingItemsVisibleToANewIndexAndResumes() {
    Table plain = store.ensureTable(TableSpec.builder("orders", keys).build());
    for (int i = 0; i < 250; i++) {
      plain.put(
          Item.builder()
              .put("user", "u" + (i % 5))
              .put("at", i)
              .put("status", i % 2 == 0 ? "open" : "done")
              .build());
    }
    Table indexed =
        store.ensureTable(
            TableSpec.builder("orders", keys)
                .index("byStatus", List.of("status"), List.of("at"))
                .build());
    Query open = Query.index("byStatus").partition(AttributeValue.of("open")).limit(1000).build();
    assertThat(indexed.query(open).items()).isEmpty();

    MaintenanceJob.Options small = new MaintenanceJob.Options(0, 50, false, null);
    List<MaintenanceJob.Progress> seen = new ArrayList<>();
    MaintenanceJob.Progress dry = indexed.backfillIndexes(small.asDryRun()).run();
    assertThat(dry.rewritten()).isEqualTo(250);
    assertThat(indexed.query(open).items()).isEmpty();

    // Interrupt after the second page, then resume from its token.
    RuntimeException stop = new RuntimeException("stop");
    try {
      indexed
          .backfillIndexes(
              small.withProgress(
                  p -> {
                    seen.add(p);
                    if (seen.size() == 2) {
                      throw stop;
                    }
                  }))
          .run();
    } catch (RuntimeException e) {
      assertThat(e).isSameAs(stop);
    }
    MaintenanceJob.Progress last =
        indexed.resumeMaintenance(seen.get(1).resumeToken(), small).run();
    assertThat(last.done()).isTrue();
    assertThat(last.scanned()).isEqualTo(250);
    assertThat(last.rewritten()).isEqualTo(250);
    assertThat(indexed.query(open).items()).hasSize(125);
    assertThat(indexed.backfillIndexes(small).run().rewritten()).isZero();
  }
}
