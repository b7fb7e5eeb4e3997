package dev.stowage.testkit;

import dev.stowage.ConditionFailedException;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.UnsupportedCapabilityException;
import dev.stowage.spi.Capability;
import dev.stowage.spi.StorageDriver;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.opentest4j.TestAbortedException;

/**
 * Base of every contract group: each test gets its own store view in a fresh namespace, and the
 * tables it opens through {@link #table} are dropped afterwards. Views are never closed, because
 * closing a view closes the driver shared by the whole kit.
 */
abstract class Contract {
  /** The store of the running test, in a namespace no other test uses. */
  protected Stowage store;

  private final List<Opened> opened = new ArrayList<>();

  private record Opened(Stowage store, String table) {}

  /**
   * The kit this contract group runs in; supplied by the nested class in {@link ConformanceKit}.
   */
  abstract ConformanceKit kit();

  @BeforeEach
  final void openStore() {
    store = kit().storeBuilder(kit().freshNamespace()).build();
  }

  @AfterEach
  final void dropTables() {
    for (Opened o : opened) {
      o.store().dropTable(o.table());
    }
    opened.clear();
  }

  /** Opens (creating) a table in the test's store; it is dropped after the test. */
  protected final Table table(TableSpec spec) {
    return table(store, spec);
  }

  /** Opens (creating) a table in another store of the test; it is dropped after the test. */
  protected final Table table(Stowage in, TableSpec spec) {
    Table t = in.ensureTable(spec);
    opened.add(new Opened(in, spec.name()));
    return t;
  }

  /** A store in another fresh namespace, sharing the kit's driver and blob store. */
  protected final Stowage otherStore() {
    return kit().storeBuilder(kit().freshNamespace()).build();
  }

  /** The driver under test. */
  protected final StorageDriver driver() {
    return kit().fixture().driver();
  }

  /** The size the heavy contracts run at. */
  protected final Scale scale() {
    return kit().fixture().scale();
  }

  /**
   * Runs a contract that needs an optional backend capability.
   *
   * <p>This is the only sanctioned way a contract may end without passing or failing. A backend
   * that lacks a capability must say so by throwing {@link UnsupportedCapabilityException}; the kit
   * then reports the contract as aborted (skipped) with the capability and the backend's reason, so
   * the gap is visible in every test report and can never be mistaken for a pass. Anything else —
   * including a driver that declares {@code declared} in {@link StorageDriver#capabilities()} and
   * then refuses it — fails the contract. Contracts must not skip in any other way (no assumptions,
   * no disabled tests).
   *
   * @param declared the capability the action needs, as drivers declare it
   * @param action the contract body
   */
  protected final void whereSupported(Capability declared, Runnable action) {
    try {
      action.run();
    } catch (UnsupportedCapabilityException e) {
      if (driver().capabilities().contains(declared)) {
        throw new AssertionError(
            "driver '"
                + driver().name()
                + "' declares "
                + declared
                + " but refused it: "
                + e.getMessage(),
            e);
      }
      throw new TestAbortedException(e.capability() + ": " + e.getMessage(), e);
    }
  }

  /**
   * Runs {@code write} and expects it to fail with {@link ConditionFailedException}; other
   * exceptions (notably {@link UnsupportedCapabilityException}) pass through unchanged, so this can
   * be used inside {@link #whereSupported}.
   */
  protected static void expectConditionFailed(Runnable write) {
    try {
      write.run();
    } catch (ConditionFailedException expected) {
      return;
    }
    throw new AssertionError("expected ConditionFailedException, but the write succeeded");
  }
}
