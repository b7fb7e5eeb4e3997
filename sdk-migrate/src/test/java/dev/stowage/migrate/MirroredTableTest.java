package dev.stowage.migrate;

import static dev.stowage.item.AttributeType.NUMBER;
import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.ConditionFailedException;
import dev.stowage.DeleteJob;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.UnsupportedCapabilityException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.migrate.MirroredTable.ReadFrom;
import dev.stowage.query.Condition;
import dev.stowage.query.Query;
import dev.stowage.query.Update;
import dev.stowage.query.WriteOptions;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.ForwardingDriver;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.WriteResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MirroredTableTest {
  static final TableSpec SPEC =
      TableSpec.builder("accounts", KeySchema.of("org", STRING, "id", NUMBER))
          .index("byPlan", List.of("plan"), List.of("id"))
          .build();

  final Table oldT = Stowage.builder(MemoryDriver.create()).build().ensureTable(SPEC);
  final Table newT = Stowage.builder(MemoryDriver.create()).build().ensureTable(SPEC);
  final List<MirroredTable.Difference> diffs = new ArrayList<>();
  final MirroredTable mirror = MirroredTable.builder(oldT, newT).onDifference(diffs::add).build();

  static Item account(int id, String plan) {
    return Item.builder().put("org", "acme").put("id", id).put("plan", plan).build();
  }

  @Test
  void writesGoToBothTables() {
    mirror.put(account(1, "free"));
    assertThat(mirror.putIfAbsent(account(2, "pro"))).isTrue();
    assertThat(mirror.putIfAbsent(account(2, "free"))).isFalse();
    mirror.batchPut(List.of(account(3, "pro"), account(4, "free")));
    Item counted =
        mirror.update(
            Key.of("acme", 1),
            Update.builder().increment("logins", 1).build(),
            WriteOptions.idempotent("r1"));
    mirror.update(
        Key.of("acme", 1),
        Update.builder().increment("logins", 1).build(),
        WriteOptions.idempotent("r1"));
    assertThat(counted.getLong("logins")).isEqualTo(1);
    mirror.delete(Key.of("acme", 4));
    mirror.batchDelete(List.of(Key.of("acme", 3)));
    for (Table t : List.of(oldT, newT)) {
      assertThat(t.queryAll(Query.partition("acme").build()).toList())
          .containsExactly(
              account(1, "free").toBuilder().put("logins", 1).build(), account(2, "pro"));
    }
  }

  @Test
  void conditionsAreDecidedByTheOldTable() {
    oldT.put(account(1, "free"));
    mirror.put(account(1, "pro"), WriteOptions.when(Condition.eq("plan", "free")));
    assertThat(newT.get(Key.of("acme", 1))).contains(account(1, "pro"));
    assertThatThrownBy(
            () -> mirror.put(account(1, "team"), WriteOptions.when(Condition.eq("plan", "free"))))
        .isInstanceOf(ConditionFailedException.class);
    assertThat(newT.get(Key.of("acme", 1))).contains(account(1, "pro"));
  }

  @Test
  void readsSwitchBetweenOldNewAndCompare() {
    oldT.put(account(1, "free"));
    newT.put(account(1, "pro"));
    assertThat(mirror.get(Key.of("acme", 1))).contains(account(1, "free"));
    mirror.readFrom(ReadFrom.NEW);
    assertThat(mirror.get(Key.of("acme", 1))).contains(account(1, "pro"));
    mirror.readFrom(ReadFrom.COMPARE);
    assertThat(mirror.get(Key.of("acme", 1))).contains(account(1, "free"));
    assertThat(
            mirror
                .query(Query.index("byPlan").partition(AttributeValue.of("free")).build())
                .items())
        .hasSize(1);
    assertThat(diffs).hasSize(2);
    assertThat(diffs.get(0).operation()).isEqualTo("get Key(\"acme\", 1)");
    assertThat(diffs.get(0).oldAnswer()).contains("free");
    assertThat(diffs.get(0).newAnswer()).contains("pro");
    diffs.clear();
    mirror.put(account(1, "team"));
    assertThat(mirror.get(Key.of("acme", 1))).contains(account(1, "team"));
    assertThat(mirror.queryAll(Query.partition("acme").build()).toList()).hasSize(1);
    assertThat(diffs).isEmpty();
  }

  @Test
  void failedMirrorWritesAreReportedOrThrown() {
    Table flaky =
        Stowage.builder(
                new ForwardingDriver(MemoryDriver.create()) {
                  @Override
                  public WriteResult put(TableLayout t, Item item, Expectation e, boolean prev) {
                    throw new dev.stowage.InvalidRequestException("new store rejects writes");
                  }
                })
            .build()
            .ensureTable(SPEC);
    List<MirroredTable.MirrorFailure> failures = new ArrayList<>();
    MirroredTable reporting =
        MirroredTable.builder(oldT, flaky).onMirrorFailure(failures::add).build();
    reporting.put(account(1, "free"));
    assertThat(oldT.get(Key.of("acme", 1))).isPresent();
    assertThat(failures)
        .singleElement()
        .satisfies(f -> assertThat(f.operation()).startsWith("put"));
    MirroredTable throwing = MirroredTable.builder(oldT, flaky).build();
    assertThatThrownBy(() -> throwing.put(account(2, "free")))
        .hasMessageContaining("new store rejects writes");
    assertThat(oldT.get(Key.of("acme", 2))).isPresent();
  }

  @Test
  void deleteWhereRunsOnBothSides() {
    mirror.batchPut(List.of(account(1, "free"), account(2, "pro"), account(3, "free")));
    List<DeleteJob.Progress> reports = new ArrayList<>();
    DeleteJob.Progress p =
        mirror
            .deleteWhere(
                Query.index("byPlan").partition(AttributeValue.of("free")).build(),
                DeleteJob.Options.DEFAULT.withProgress(reports::add))
            .run();
    assertThat(p.deleted()).isEqualTo(4);
    assertThat(p.done()).isTrue();
    assertThat(reports).isNotEmpty();
    assertThat(oldT.queryAll(Query.partition("acme").build()).toList())
        .containsExactly(account(2, "pro"));
    assertThat(newT.queryAll(Query.partition("acme").build()).toList())
        .containsExactly(account(2, "pro"));
    assertThatThrownBy(() -> mirror.resumeDelete("t", DeleteJob.Options.DEFAULT))
        .isInstanceOf(UnsupportedCapabilityException.class);
  }

  @Test
  void keySchemasMustAgree() {
    Table other =
        Stowage.builder(MemoryDriver.create())
            .build()
            .ensureTable(TableSpec.builder("accounts", KeySchema.of("org", STRING)).build());
    assertThatThrownBy(() -> MirroredTable.builder(oldT, other).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("different key schemas");
  }
}
