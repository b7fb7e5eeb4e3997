package dev.stowage.beam;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.Stowage;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.typed.TypedSchema;
import dev.stowage.typed.TypedTable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.util.SerializableUtils;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * On the DirectRunner over shared memory stores: the typed read maps decoded items (encrypted and
 * compressed fields) to records, which pass a shuffle through their coder; and reads are split
 * while they run (the DirectRunner checkpoints a splittable read every 100 outputs), still emitting
 * every item exactly once.
 */
class TypedAndSplitReadTest {
  static final Queue<Trade> TRADES = new ConcurrentLinkedQueue<>();
  static final Queue<Item> ITEMS = new ConcurrentLinkedQueue<>();
  static final Map<String, Integer> PER_DESK = new java.util.concurrent.ConcurrentHashMap<>();

  @BeforeEach
  void fresh() {
    SharedStores.reset();
    TRADES.clear();
    ITEMS.clear();
    PER_DESK.clear();
  }

  @AfterEach
  void clean() {
    SharedStores.reset();
  }

  static Stowage stowage() {
    return MemoryMigrationPipelineTest.stowage("typed", "prod");
  }

  static List<Trade> trades(int n) {
    List<Trade> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(
          new Trade(
              "desk-" + (i % 7),
              i,
              // Stored numbers drop trailing zeros, so these have none (records compare scales).
              BigDecimal.valueOf(i).add(new BigDecimal("0.25")),
              "note " + "x".repeat(i % 50),
              "cp-" + i,
              i % 3 == 0 ? List.of() : List.of("t" + i, "fx")));
    }
    return out;
  }

  static final class GatherTrades extends DoFn<Trade, Void> {
    @ProcessElement
    public void process(@Element Trade t) {
      TRADES.add(t);
    }
  }

  static final class CountDesks extends DoFn<KV<String, Iterable<Trade>>, Void> {
    @ProcessElement
    public void process(@Element KV<String, Iterable<Trade>> desk) {
      int n = 0;
      for (Trade t : desk.getValue()) {
        assertThat(t.desk()).isEqualTo(desk.getKey());
        n++;
      }
      PER_DESK.merge(desk.getKey(), n, Integer::sum);
    }
  }

  static final class GatherItems extends DoFn<Item, Void> {
    @ProcessElement
    public void process(@Element Item i) {
      ITEMS.add(i);
    }
  }

  @Test
  void readTypedMapsEveryItemToItsRecordAndGroupsThem() throws Exception {
    List<Trade> trades = trades(700);
    TypedTable<Trade> table = stowage().ensureTable(Trade.class);
    for (Trade t : trades) {
      table.put(t);
    }
    Pipeline p = Pipeline.create();
    StowageIO.ReadTyped<Trade> read =
        StowageIO.readTyped(TypedAndSplitReadTest::stowage, Trade.class)
            .withSegments(3)
            .withSubsegments(3)
            .withPageSize(40);
    var read1 = p.apply(read);
    read1.apply("Gather", ParDo.of(new GatherTrades()));
    read1
        .apply("ByDesk", WithKeys.of(Trade::desk).withKeyType(TypeDescriptors.strings()))
        .setCoder(KvCoder.of(StringUtf8Coder.of(), read.coder()))
        .apply(GroupByKey.create())
        .apply("Count", ParDo.of(new CountDesks()));
    PipelineResult result = p.run();
    result.waitUntilFinish();

    assertThat(TRADES).containsExactlyInAnyOrderElementsOf(trades);
    Map<String, Integer> expected = new HashMap<>();
    trades.forEach(t -> expected.merge(t.desk(), 1, Integer::sum));
    assertThat(PER_DESK).isEqualTo(expected);
    assertThat(counter(result, "decodedItems")).isEqualTo(trades.size());

    // The coder: through the stored form, exactly, with the empty list and decimals kept.
    Coder<Trade> coder = read.coder();
    // A copy of the coder as a worker gets it (serialised with the pipeline) decodes the same.
    Coder<Trade> shipped = SerializableUtils.clone(coder);
    for (Trade t : trades.subList(0, 10)) {
      byte[] bytes = CoderUtils.encodeToByteArray(coder, t);
      assertThat(CoderUtils.decodeFromByteArray(shipped, bytes)).isEqualTo(t);
    }
    // An instance decodes as the table would read it back: the typed mapping stores numbers
    // without trailing zeros, as every backend does.
    Trade padded = new Trade("d", 1, new BigDecimal("10.500"), "", "", List.of());
    table.put(padded);
    assertThat(CoderUtils.decodeFromByteArray(coder, CoderUtils.encodeToByteArray(coder, padded)))
        .isEqualTo(table.get(table.keyOf(padded)).orElseThrow())
        .extracting(Trade::amount)
        .isEqualTo(new BigDecimal("10.5"));
  }

  @Test
  void readTypedTakesASchemaBuiltWithALookupOrAnotherTableName() {
    List<Trade> trades = trades(60);
    TypedSchema<Trade> renamed =
        TypedSchema.builder(Trade.class)
            .tableName("trades2")
            .lookup(java.lang.invoke.MethodHandles.lookup())
            .build();
    TypedTable<Trade> table = stowage().ensureTable(renamed);
    trades.forEach(table::put);
    Pipeline p = Pipeline.create();
    p.apply(
            StowageIO.readTyped(
                    TypedAndSplitReadTest::stowage,
                    Trade.class,
                    () ->
                        TypedSchema.builder(Trade.class)
                            .tableName("trades2")
                            .lookup(java.lang.invoke.MethodHandles.lookup())
                            .build())
                .withSegments(2))
        .apply(ParDo.of(new GatherTrades()));
    p.run().waitUntilFinish();
    assertThat(TRADES).containsExactlyInAnyOrderElementsOf(trades);
  }

  @Test
  void readsSplitWhileRunningEmitEveryItemExactlyOnce() {
    List<Item> items = Ledger.items(2_000);
    Ledger.write(stowage().ensureTable(Ledger.SPEC), items);
    Pipeline p = Pipeline.create();
    p.apply(
            StowageIO.readStored(SharedStores.spec("typed", "prod"), Ledger.SPEC)
                .withSegments(2)
                .withSubsegments(4)
                .withPageSize(30))
        .apply(ParDo.of(new GatherItems()));
    PipelineResult result = p.run();
    result.waitUntilFinish();

    List<Key> keys = ITEMS.stream().map(i -> Ledger.SPEC.keySchema().keyOf(i)).toList();
    assertThat(keys)
        .doesNotHaveDuplicates()
        .containsExactlyInAnyOrderElementsOf(
            items.stream().map(i -> Ledger.SPEC.keySchema().keyOf(i)).toList());
    // The DirectRunner checkpointed the reads (each a split at a page checkpoint) many times.
    assertThat(counter(result, "readSplits")).isGreaterThan(10);
    assertThat(counter(result, "readItems")).isEqualTo(items.size());
  }

  static long counter(PipelineResult result, String name) {
    long total = 0;
    for (MetricResult<Long> c :
        result
            .metrics()
            .queryMetrics(
                MetricsFilter.builder()
                    .addNameFilter(MetricNameFilter.named("stowage", name))
                    .build())
            .getCounters()) {
      total += c.getAttempted();
    }
    return total;
  }
}
