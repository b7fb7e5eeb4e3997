package dev.stowage.testkit;

import dev.stowage.Stowage;
import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.TestInstance;

/**
 * The conformance kit: every contract a Stowage driver must honour, as JUnit 5 tests.
 *
 * <p>A driver module runs the whole kit against its backend with one class:
 *
 * <pre>{@code
 * class DynamoDbConformanceTest extends ConformanceKit {
 *   @Override
 *   protected DriverFixture createFixture() {
 *     return DynamoDbFixture.start(); // emulator + driver + blob store
 *   }
 * }
 * }</pre>
 *
 * <p>The fixture is created once per test class and closed after every contract has run. Each
 * contract group is a {@link Nested} class inherited by the subclass; each test runs in a fresh
 * namespace, so tests never see each other's data, and drops the tables it created. A contract
 * needing a capability the driver lacks is reported as aborted with the backend's reason (see
 * {@link Contract#whereSupported}), never as passed. Heavy contracts run at the fixture's {@link
 * Scale}.
 *
 * <p>Not thread-safe: JUnit runs one test class instance at a time; contracts start their own
 * threads where they test concurrency.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ConformanceKit {
  private static final AtomicLong COUNTER = new AtomicLong();
  private static final String RUN = runPrefix();

  private DriverFixture fixture;

  /** Creates the fixture (driver, blob store and whatever emulator they need). Called once. */
  protected abstract DriverFixture createFixture();

  @BeforeAll
  final void startFixture() {
    fixture = createFixture();
    if (fixture == null) {
      throw new IllegalStateException(getClass().getName() + ".createFixture() returned null");
    }
  }

  @AfterAll
  final void closeFixture() {
    if (fixture != null) {
      fixture.close();
      fixture = null;
    }
  }

  /** The running fixture. @throws IllegalStateException outside the test class's lifetime */
  public final DriverFixture fixture() {
    if (fixture == null) {
      throw new IllegalStateException("the fixture is not running");
    }
    return fixture;
  }

  /**
   * A namespace no other test of this JVM run uses: {@code t}, a random run prefix and a counter,
   * at most 16 lowercase letters and digits.
   */
  public final String freshNamespace() {
    return "t" + RUN + Long.toString(COUNTER.incrementAndGet(), 36);
  }

  /** A store builder over the fixture's driver and blob store, in {@code namespace}. */
  public final Stowage.Builder storeBuilder(String namespace) {
    return Stowage.builder(fixture().driver())
        .blobStore(fixture().blobStore())
        .namespace(namespace);
  }

  private static String runPrefix() {
    SecureRandom r = new SecureRandom();
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      sb.append(Character.forDigit(r.nextInt(36), 36));
    }
    return sb.toString();
  }

  /** Items: exact round trips, value types, names, keys, projections, consistent reads. */
  @Nested
  class Items extends ItemContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** Key ordering of every key type, both directions, every sort condition. */
  @Nested
  class Ordering extends OrderingContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** Conditional writes: races, condition kinds, versions, bad conditions. */
  @Nested
  class ConditionalWrites extends ConditionContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** Updates and counters. */
  @Nested
  class Updates extends UpdateContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** Idempotent writes and the daily rate limiter. */
  @Nested
  class Idempotency extends IdempotencyContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** Cursor pagination in both directions, live inserts, filters, indexes. */
  @Nested
  class Paging extends PagingContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** Cursor sealing: tampering, truncation, expiry, namespace and table binding. */
  @Nested
  class Cursors extends CursorContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** Multi-column secondary indexes. */
  @Nested
  class MultiColumnIndexes extends IndexContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** Tables other tools write too: stale and missing index values, found and repaired. */
  @Nested
  class ForeignWriters extends ForeignWriteContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** The backend's own secondary indexes as Stowage indexes (capability-gated). */
  @Nested
  class NativeIndexes extends NativeIndexContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** Indexed values longer than some backends index: long URLs, long sort values, long keys. */
  @Nested
  class LongIndexValues extends LongIndexValueContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** Delete-by-index jobs. */
  @Nested
  class DeleteByIndex extends DeleteJobContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** Batches beyond every backend's limits. */
  @Nested
  class Batches extends BatchContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** Namespace isolation. */
  @Nested
  class Namespaces extends NamespaceContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** Opening never creates; ensureTable creates; disagreeing specs are refused. */
  @Nested
  class TableLifecycle extends TableLifecycleContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** Transactions (capability-gated). */
  @Nested
  class Transactions extends TransactionContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** Scans. */
  @Nested
  class Scans extends ScanContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** Segmented scans of tables and indexes: coverage, resumption, concurrent writes. */
  @Nested
  class SegmentedScans extends SegmentedScanContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** Compressed and encrypted attributes. */
  @Nested
  class Codecs extends CodecContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** Exact round trips of keys and values that look like Stowage's own formats. */
  @Nested
  class ExactRoundTrips extends ExactRoundTripContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** Lost responses: a write applied whose response never arrived loses nothing. */
  @Nested
  class LostResponse extends LostResponseContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** Overflow of oversized items to the blob store. */
  @Nested
  class Overflow extends OverflowContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** Typed items: the item, index, paging, condition and codec contracts through the typed API. */
  @Nested
  class TypedItems extends TypedContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** Typed classes evolving towards and away from encryption; old items keep reading. */
  @Nested
  class TypedEvolution extends TypedEvolutionContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** Usage tracking and hot keys over the backend's real requests; cost-driven overflow. */
  @Nested
  class Usage extends UsageContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** The driver's primitives, called directly. */
  @Nested
  class DriverPrimitives extends SpiContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }

  /** Per-table metrics: requests, items, bytes and, when counted, billable units per operation. */
  @Nested
  class TableMetrics extends MetricsContracts {
    @Override
    ConformanceKit kit() {
      return ConformanceKit.this;
    }
  }
}
