package dev.stowage.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectNestedClass;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

import dev.stowage.memory.MemoryDriver;
import dev.stowage.overflow.BlobStore;
import dev.stowage.overflow.MemoryBlobStore;
import dev.stowage.spi.Capability;
import dev.stowage.spi.StorageDriver;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherFactory;
import org.opentest4j.TestAbortedException;

/** A contract needing a capability the driver lacks is reported as aborted with the reason. */
class CapabilitySkipTest {

  /** The kit over a memory driver without transactions; run only through the launcher below. */
  static class WithoutTransactions extends ConformanceKit {
    @Override
    protected DriverFixture createFixture() {
      StorageDriver driver = MemoryDriver.builder().without(Capability.TRANSACTIONS).build();
      BlobStore blobs = new MemoryBlobStore();
      return new DriverFixture() {
        @Override
        public StorageDriver driver() {
          return driver;
        }

        @Override
        public BlobStore blobStore() {
          return blobs;
        }

        @Override
        public void close() {
          driver.close();
        }
      };
    }
  }

  @Test
  void transactionContractsAreAbortedWithTheBackendsReasonNeverPassed() {
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
        .execute(
            request()
                .selectors(
                    selectNestedClass(
                        List.of(WithoutTransactions.class), ConformanceKit.Transactions.class))
                .build(),
            listener);
    assertThat(results).hasSize(3);
    for (var e : results.entrySet()) {
      TestExecutionResult r = e.getValue();
      assertThat(r.getStatus()).as(e.getKey()).isEqualTo(TestExecutionResult.Status.ABORTED);
      Throwable why = r.getThrowable().orElseThrow();
      assertThat(why).isInstanceOf(TestAbortedException.class);
      assertThat(why.getMessage()).startsWith("TRANSACTIONS: ").contains("not supported");
    }
  }
}
