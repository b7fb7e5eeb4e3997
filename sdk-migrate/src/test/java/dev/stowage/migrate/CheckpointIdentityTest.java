package dev.stowage.migrate;

import static dev.stowage.migrate.MigratorTest.SPEC;
import static dev.stowage.migrate.MigratorTest.fill;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.NotFoundException;
import dev.stowage.RetryPolicy;
import dev.stowage.Stowage;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.spi.ForwardingDriver;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkpoint records the exact source and target (backend, location, namespace, table) and is
 * refused for any other pair before anything is read or written; a table is never copied onto
 * itself.
 */
class CheckpointIdentityTest {
  @TempDir Path dir;

  MemoryDriver source;
  MemoryDriver target;
  Path checkpoint;
  int copiedBeforeCrash;

  /** Counts every call that reads or writes (ensureTable included). */
  static final class Touches extends ForwardingDriver {
    final AtomicInteger calls = new AtomicInteger();

    Touches(StorageDriver delegate) {
      super(delegate);
    }

    @Override
    public void ensureTable(TableLayout layout) {
      calls.incrementAndGet();
      super.ensureTable(layout);
    }

    @Override
    public void openTable(TableLayout layout) {
      calls.incrementAndGet();
      super.openTable(layout);
    }

    @Override
    public dev.stowage.spi.QueryResult scan(TableLayout table, dev.stowage.spi.DriverScan scan) {
      calls.incrementAndGet();
      return super.scan(table, scan);
    }

    @Override
    public dev.stowage.spi.BatchWriteResult batchWrite(
        TableLayout table, java.util.List<dev.stowage.spi.WriteOp> writes) {
      calls.incrementAndGet();
      return super.batchWrite(table, writes);
    }
  }

  /** Pair A (memory source, namespace '' → memory target, namespace 'one'), interrupted. */
  @BeforeEach
  void interruptedMigrationOfPairA() {
    source = MemoryDriver.create();
    target = MemoryDriver.create();
    fill(Stowage.builder(source).build().ensureTable(SPEC), 600);
    checkpoint = dir.resolve("events.checkpoint");
    MigratorTest.RecordingDriver crashing = new MigratorTest.RecordingDriver(target);
    crashing.failAfterBatches = 2;
    assertThatThrownBy(() -> pairA(crashing).build().run()).hasMessage("simulated crash");
    copiedBeforeCrash = crashing.puts.size();
    assertThat(copiedBeforeCrash).isBetween(1, 599);
  }

  private Migrator.Builder pairA(StorageDriver targetDriver) {
    return Migrator.builder(SPEC)
        .source(source, null, "")
        .target(targetDriver, null, "one")
        .pageSize(100)
        .parallelism(1)
        .checkpoint(checkpoint)
        .retryPolicy(RetryPolicy.NONE);
  }

  /** Runs pair A changed by {@code change} and expects a refusal that touched nothing. */
  private String refused(UnaryOperator<Migrator.Builder> change, StorageDriver targetDriver)
      throws IOException {
    byte[] before = Files.readAllBytes(checkpoint);
    Touches src = new Touches(source);
    Touches dst = new Touches(targetDriver);
    Migrator.Builder b =
        change.apply(
            Migrator.builder(SPEC)
                .source(src, null, "")
                .target(dst, null, "one")
                .pageSize(100)
                .parallelism(1)
                .checkpoint(checkpoint)
                .retryPolicy(RetryPolicy.NONE));
    Migrator m = b.build();
    Throwable e = org.assertj.core.api.Assertions.catchThrowable(m::run);
    assertThat(e).isInstanceOf(IllegalArgumentException.class);
    assertThat(src.calls).as("source calls").hasValue(0);
    assertThat(dst.calls).as("target calls").hasValue(0);
    assertThat(Files.readAllBytes(checkpoint)).as("checkpoint untouched").isEqualTo(before);
    return e.getMessage();
  }

  private String a(MemoryDriver d) {
    return "memory " + d.location();
  }

  @Test
  void checkpointForAnotherTargetTableIsRefusedNamingBothPairs() throws IOException {
    String message = refused(b -> b.targetTable("events2"), target);
    assertThat(message)
        .contains("checkpoint " + checkpoint + " belongs to another migration")
        .contains("the target table differs")
        .contains(
            "It was written for "
                + a(source)
                + " namespace '' table events -> "
                + a(target)
                + " namespace 'one' table events, not for "
                + a(source)
                + " namespace '' table events -> "
                + a(target)
                + " namespace 'one' table events2")
        .contains("start afresh with another checkpoint file");
    // the other target table was not even created
    assertThatThrownBy(() -> scan(target, new TableRef("one", "events2")))
        .isInstanceOf(NotFoundException.class);
  }

  @Test
  void checkpointForAnotherTargetNamespaceIsRefused() throws IOException {
    Touches dst = new Touches(target);
    String message = refused(b -> b.target(dst, null, "two"), target);
    assertThat(message)
        .contains("the target namespace differs")
        .contains("not for " + a(source) + " namespace '' table events -> ")
        .contains(" namespace 'two' table events");
    assertThat(dst.calls).hasValue(0);
  }

  @Test
  void checkpointForAnotherTargetLocationIsRefused() throws IOException {
    // The same backend, namespace and table in another store: the case that skipped items before.
    MemoryDriver elsewhere = MemoryDriver.create();
    String message = refused(b -> b, elsewhere);
    assertThat(message)
        .contains("the target location differs")
        .contains("-> " + a(target) + " namespace 'one' table events, not for")
        .endsWith(
            "-> "
                + a(elsewhere)
                + " namespace 'one' table events; resume with the stores it names, or start"
                + " afresh with another checkpoint file (or delete this one)");
    assertThatThrownBy(() -> scan(elsewhere, new TableRef("one", "events")))
        .isInstanceOf(NotFoundException.class);
  }

  @Test
  void checkpointForAnotherSourceIsRefused() throws IOException {
    MemoryDriver otherSource = MemoryDriver.create();
    fill(Stowage.builder(otherSource).build().ensureTable(SPEC), 600);
    byte[] before = Files.readAllBytes(checkpoint);
    Touches dst = new Touches(target);
    Touches src = new Touches(otherSource);
    assertThatThrownBy(
            () ->
                Migrator.builder(SPEC)
                    .source(src, null, "")
                    .target(dst, null, "one")
                    .checkpoint(checkpoint)
                    .build()
                    .run())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the source location differs")
        .hasMessageContaining(a(otherSource) + " namespace '' table events -> ");
    assertThat(src.calls).hasValue(0);
    assertThat(dst.calls).hasValue(0);
    assertThat(Files.readAllBytes(checkpoint)).isEqualTo(before);
  }

  @Test
  void everyDifferenceIsNamed() throws IOException {
    MemoryDriver elsewhere = MemoryDriver.create();
    String message = refused(b -> b.targetTable("events2").targetLocation("x"), target);
    assertThat(message).contains("the target location and the target table differ");
    assertThat(refused(b -> b.sourceLocation("y").target(elsewhere, null, "two"), target))
        .contains("the source location, the target location and the target namespace differ");
  }

  @Test
  void resumingWithTheRightPairStillWorksAfterRefusals() throws IOException {
    refused(b -> b.targetTable("events2"), target);
    refused(b -> b, MemoryDriver.create());
    MigratorTest.RecordingDriver counted = new MigratorTest.RecordingDriver(target);
    Migrator resumed = pairA(counted).build();
    Migrator.Report r = resumed.run();
    assertThat(r.progress().itemsSkipped()).isEqualTo(copiedBeforeCrash);
    assertThat(r.progress().itemsCopied()).isEqualTo(600 - copiedBeforeCrash);
    assertThat(counted.puts).hasSize(600 - copiedBeforeCrash);
    assertThat(resumed.verify().ok()).isTrue();
    // a wrapper around the same target driver is the same store: its checkpoint still applies
    Migrator.Report again = pairA(new CountingDriver(target, false)).build().run();
    assertThat(again.progress().itemsCopied()).isZero();
    assertThat(again.progress().itemsSkipped()).isEqualTo(600);
  }

  @Test
  void checkpointRecordsGivenLocationsEscaped() throws IOException {
    Path file = dir.resolve("accounts.checkpoint");
    MemoryDriver other = MemoryDriver.create();
    Migrator.Builder b =
        Migrator.builder(SPEC)
            .source(source, null, "")
            .sourceLocation("account\t1 \\ one")
            .target(other, null, "")
            .targetLocation("account 2\nline")
            .checkpoint(file);
    assertThat(b.build().run().progress().itemsCopied()).isEqualTo(600);
    assertThat(Files.readAllLines(file, StandardCharsets.UTF_8).get(0))
        .isEqualTo(
            "stowage-migrate\t2\tmemory\taccount\\t1 \\\\ one\t\tevents\tmemory\taccount"
                + " 2\\nline\t\tevents");
    assertThat(b.build().run().progress().itemsSkipped()).isEqualTo(600);
    assertThatThrownBy(() -> b.targetLocation("account 3").build().run())
        .hasMessageContaining("the target location differs")
        .hasMessageContaining("memory account 2\nline namespace '' table events, not for");
  }

  @Test
  void checkpointOfTheFirstFormatIsRefused() throws IOException {
    Path old = dir.resolve("old.checkpoint");
    String content = "stowage-migrate\t1\tmemory:events\tmemory:one.events\npage\tS\tS:x\t100\n";
    Files.writeString(old, content);
    Touches dst = new Touches(target);
    assertThatThrownBy(
            () ->
                Migrator.builder(SPEC)
                    .source(source, null, "")
                    .target(dst, null, "one")
                    .checkpoint(old)
                    .build()
                    .run())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was written by an earlier version of Stowage")
        .hasMessageContaining("does not record where its source and target are")
        .hasMessageContaining("start afresh with another checkpoint file (or delete this one)");
    assertThat(dst.calls).hasValue(0);
    assertThat(Files.readString(old)).isEqualTo(content);
  }

  @Test
  void aFileThatIsNoCheckpointIsRefusedAndKept() throws IOException {
    Path spec = dir.resolve("events.json");
    Files.writeString(spec, "{\"name\":\"events\"}");
    assertThatThrownBy(
            () ->
                Migrator.builder(SPEC)
                    .source(source, null, "")
                    .target(target, null, "one")
                    .checkpoint(spec)
                    .build()
                    .run())
        .hasMessageContaining("is not a Stowage migration checkpoint");
    assertThat(Files.readString(spec)).isEqualTo("{\"name\":\"events\"}");
  }

  @Test
  void aHeaderTornWhileTheFileWasCreatedIsWrittenAgain() throws IOException {
    Path file = dir.resolve("torn.checkpoint");
    MemoryDriver other = MemoryDriver.create();
    Migrator.Builder b =
        Migrator.builder(SPEC).source(source, null, "").target(other, null, "").checkpoint(file);
    String header =
        "stowage-migrate\t2\tmemory\t"
            + source.location()
            + "\t\tevents\tmemory\t"
            + other.location()
            + "\t\tevents";
    Files.writeString(file, header.substring(0, 30));
    assertThat(b.build().run().progress().itemsCopied()).isEqualTo(600);
    assertThat(Files.readAllLines(file).get(0)).isEqualTo(header);
  }

  @Test
  void migratingATableOntoItselfIsRefusedBeforeAnythingIsRead() {
    Touches same = new Touches(source);
    assertThatThrownBy(
            () -> Migrator.builder(SPEC).source(same, null, "").target(same, null, "").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "the source and the target are the same table (memory "
                + source.location()
                + " namespace '' table events): a table cannot be migrated onto itself; name"
                + " another store, namespace or table as the target");
    // two decorators of one driver are one store
    assertThatThrownBy(
            () ->
                Migrator.builder(SPEC)
                    .source(new CountingDriver(source, false), null, "prod")
                    .target(new Touches(source), null, "prod")
                    .build())
        .hasMessageContaining("a table cannot be migrated onto itself");
    // a given location counts: two drivers said to be one store
    assertThatThrownBy(
            () ->
                Migrator.builder(SPEC)
                    .source(source, null, "")
                    .sourceLocation("account 1")
                    .target(target, null, "")
                    .targetLocation("account 1")
                    .build())
        .hasMessageContaining("(memory account 1 namespace '' table events)");
    // the same driver given two locations is still one store
    assertThatThrownBy(
            () ->
                Migrator.builder(SPEC)
                    .source(source, null, "")
                    .sourceLocation("account 1")
                    .target(source, null, "")
                    .targetLocation("account 2")
                    .build())
        .hasMessageContaining("a table cannot be migrated onto itself");
    assertThat(same.calls).hasValue(0);

    // another namespace, another table or another store of the same backend are fine
    Migrator.builder(SPEC).source(source, null, "").target(source, null, "copy").build();
    Migrator.builder(SPEC)
        .source(source, null, "")
        .target(source, null, "")
        .targetTable("events2")
        .build();
    Migrator.builder(SPEC).source(source, null, "").target(target, null, "").build();
  }

  @Test
  void memoryDriversAreEachAStoreOfTheirOwnAndDecoratorsForwardTheLocation() {
    assertThat(source.location()).startsWith("instance ").isNotEqualTo(target.location());
    assertThat(new CountingDriver(source, false).location()).isEqualTo(source.location());
    assertThat(new Touches(source).name()).isEqualTo("memory");
  }

  private static Object scan(StorageDriver d, TableRef ref) {
    return d.scan(
        new TableLayout(ref, SPEC.keySchema(), java.util.List.of()),
        new dev.stowage.spi.DriverScan(10, null, true));
  }
}
