package dev.stowage.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectNestedClass;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

import dev.stowage.memory.MemoryDriver;
import dev.stowage.overflow.MemoryBlobStore;
import dev.stowage.spi.Capability;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestExecutionResult.Status;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherFactory;
import org.opentest4j.TestAbortedException;

/** A contract needing a capability the driver lacks is reported as aborted with the reason. */
class CapabilitySkipTest {

  /** The kit over a memory driver without transactions; run only through the launcher. */
  static class WithoutTransactions extends ConformanceKit {
    @Override
    protected DriverFixture createFixture() {
      return fixtureWithout(Capability.TRANSACTIONS);
    }
  }

  /** Transactions within one partition only, like Azure Table Storage. */
  static class SinglePartitionTransactions extends ConformanceKit {
    @Override
    protected DriverFixture createFixture() {
      return fixtureWithout(Capability.CROSS_PARTITION_TRANSACTIONS);
    }
  }

  /** No native indexes, like Azure Table Storage. */
  static class WithoutNativeIndexes extends ConformanceKit {
    @Override
    protected DriverFixture createFixture() {
      return fixtureWithout(Capability.NATIVE_INDEXES);
    }
  }

  /** No segmented scans: every segmented-scan contract is aborted with the reason. */
  static class WithoutSegmentedScans extends ConformanceKit {
    @Override
    protected DriverFixture createFixture() {
      return fixtureWithout(Capability.SEGMENTED_SCANS);
    }
  }

  private static DriverFixture fixtureWithout(Capability missing) {
    return DriverFixture.of(
        MemoryDriver.builder().without(missing).build(), new MemoryBlobStore(), Scale.full(), null);
  }

  private static Map<String, TestExecutionResult> runTransactions(Class<?> kit) {
    return run(kit, ConformanceKit.Transactions.class);
  }

  private static Map<String, TestExecutionResult> run(Class<?> kit, Class<?> group) {
    Map<String, TestExecutionResult> results = new ConcurrentHashMap<>();
    TestExecutionListener listener =
        new TestExecutionListener() {
          @Override
          public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            if (id.isTest()) {
              results.put(id.getDisplayName(), result);
            }
          }
        };
    LauncherFactory.create()
        .execute(request().selectors(selectNestedClass(List.of(kit), group)).build(), listener);
    return results;
  }

  private static void assertAborted(TestExecutionResult r, String capability) {
    assertAborted(r, capability, "a contract");
  }

  private static void assertAborted(TestExecutionResult r, String capability, String name) {
    assertThat(r.getStatus())
        .as("%s: %s", name, r.getThrowable().map(Throwable::toString).orElse(""))
        .isEqualTo(Status.ABORTED);
    Throwable why = r.getThrowable().orElseThrow();
    assertThat(why).isInstanceOf(TestAbortedException.class);
    assertThat(why.getMessage()).startsWith(capability + ": ").contains("not supported");
  }

  @Test
  void transactionContractsAreAbortedWithTheBackendsReasonNeverPassed() {
    Map<String, TestExecutionResult> results = runTransactions(WithoutTransactions.class);
    assertThat(results).hasSize(3);
    results.values().forEach(r -> assertAborted(r, "TRANSACTIONS"));
  }

  @Test
  void nativeIndexContractsAreAbortedWhereTheBackendHasNone() {
    Map<String, TestExecutionResult> results =
        run(WithoutNativeIndexes.class, ConformanceKit.NativeIndexes.class);
    assertThat(results).hasSize(6);
    results.values().forEach(r -> assertAborted(r, "NATIVE_INDEXES"));
  }

  @Test
  void segmentedScanContractsAreAbortedWhereTheBackendHasNone() {
    Map<String, TestExecutionResult> results =
        run(WithoutSegmentedScans.class, ConformanceKit.SegmentedScans.class);
    assertThat(results).hasSize(8);
    results.forEach((name, r) -> assertAborted(r, "SEGMENTED_SCANS", name));
  }

  @Test
  void onlyCrossPartitionContractsAbortOnSinglePartitionTransactions() {
    Map<String, TestExecutionResult> results = runTransactions(SinglePartitionTransactions.class);
    assertThat(results).hasSize(3);
    results.forEach(
        (name, r) -> {
          if (name.startsWith("aTransactionAcrossPartitions")) {
            assertAborted(r, "CROSS_PARTITION_TRANSACTIONS");
          } else {
            assertThat(r.getStatus()).as(name).isEqualTo(Status.SUCCESSFUL);
          }
        });
  }
}
