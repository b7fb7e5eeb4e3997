package dev.stowage.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.IndexSpec;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.KeyRange;
import java.math.BigDecimal;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The long forms of index values (docs/FORMAT.md, "Long index values"). */
class LongIndexValuesTest {
  private static final IndexSpec BY_KIND =
      IndexSpec.of("byKind", List.of("tenant", "kind"), List.of("at"));
  private static final HexFormat HEX = HexFormat.of();

  @Test
  void aLongPartitionValueKeepsTheFingerprintAPrefixAndTheDigestOfTheWholeTuple() throws Exception {
    String url = "https://example.com/" + "a".repeat(1600);
    List<KeyValue> values = List.of(AttributeValue.of("t"), AttributeValue.of(url));
    Bytes full = IndexValues.partition(BY_KIND, values).value();
    Bytes tuple = TupleEncoding.encode(values);
    assertThat(full.size()).isEqualTo(5 + tuple.size());

    Bytes stored = IndexValues.storedPartition(full, 255);
    byte[] s = stored.toByteArray();
    assertThat(s).hasSize(101);
    assertThat(s[0]).isEqualTo((byte) 0x03);
    assertThat(HEX.formatHex(s, 1, 5)).isEqualTo("a1ab227b");
    assertThat(Arrays.copyOfRange(s, 5, 69)).isEqualTo(Arrays.copyOf(tuple.toByteArray(), 64));
    assertThat(Arrays.copyOfRange(s, 69, 101))
        .isEqualTo(MessageDigest.getInstance("SHA-256").digest(tuple.toByteArray()));
    assertThat(IndexValues.isLongPartition(stored)).isTrue();
    assertThat(IndexValues.isLongPartition(full)).isFalse();
    assertThat(IndexValues.storedPartition(full, 1024))
        .as("the same value is long on every backend that cannot index it")
        .isEqualTo(IndexValues.storedPartition(full, 1500))
        .isEqualTo(stored);
    assertThat(IndexValues.storedPartition(full, full.size()))
        .as("a value that fits is stored as it is")
        .isSameAs(full);
  }

  @Test
  void valuesThatFitTodayKeepTheirEncoding() {
    // The documented example and the longest values of every backend's earlier limit.
    Bytes example =
        IndexValues.partition(BY_KIND, List.of(AttributeValue.of("t"), AttributeValue.of("click")))
            .value();
    for (long max : new long[] {255, 1024, 1500}) {
      assertThat(IndexValues.storedPartition(example, max)).isSameAs(example);
      for (int earlier : new int[] {120, 1024, 1500}) {
        if (earlier > max) {
          continue;
        }
        Bytes longestPartition = IndexValues.partition(0x12345678, one(earlier - 9)).value();
        assertThat(longestPartition.size()).isEqualTo(earlier);
        assertThat(IndexValues.storedPartition(longestPartition, max)).isSameAs(longestPartition);
        Bytes longestSort = TupleEncoding.encode(one(earlier - 9));
        assertThat(IndexValues.storedSort(longestSort, max)).isSameAs(longestSort);
      }
    }
  }

  private static List<KeyValue> one(int bytes) {
    return List.of(AttributeValue.of("x".repeat(bytes)));
  }

  @Test
  void aSortBucketIsThePrefixAndTheMarker() {
    Bytes tuple = TupleEncoding.encode(List.of(AttributeValue.of("q".repeat(300))));
    Bytes bucket = IndexValues.storedSort(tuple, 255);
    assertThat(bucket.size()).isEqualTo(255);
    assertThat(bucket.toByteArray())
        .startsWith(Arrays.copyOf(tuple.toByteArray(), 254))
        .endsWith((byte) 0x02);
    assertThat(IndexValues.isSortBucket(bucket)).isTrue();
    Bytes longestShort = TupleEncoding.encode(List.of(AttributeValue.of("q".repeat(250))));
    assertThat(longestShort.size()).isEqualTo(254);
    assertThat(IndexValues.storedSort(longestShort, 255)).isSameAs(longestShort);
    assertThat(IndexValues.isSortBucket(longestShort)).isFalse();
  }

  @Property(tries = 300)
  void noCompleteTupleLooksLikeABucket(@ForAll("tuples") List<KeyValue> tuple) {
    assertThat(IndexValues.isSortBucket(TupleEncoding.encode(tuple))).isFalse();
  }

  @Property(tries = 1000)
  void storedSortValuesKeepTheOrder(
      @ForAll("tuples") List<KeyValue> a,
      @ForAll("tuples") List<KeyValue> b,
      @ForAll @IntRange(min = 8, max = 40) int max) {
    Bytes ea = TupleEncoding.encode(a);
    Bytes eb = TupleEncoding.encode(b);
    Bytes sa = IndexValues.storedSort(ea, max);
    Bytes sb = IndexValues.storedSort(eb, max);
    assertThat(sa.size()).isLessThanOrEqualTo(max);
    int full = Integer.signum(ea.compareTo(eb));
    int stored = Integer.signum(sa.compareTo(sb));
    if (stored != 0) {
      assertThat(stored).as("stored values never contradict the order").isEqualTo(full);
    } else if (full != 0) {
      assertThat(IndexValues.isSortBucket(sa)).as("only long values share a stored value").isTrue();
      assertThat(Arrays.copyOf(ea.toByteArray(), max - 1))
          .isEqualTo(Arrays.copyOf(eb.toByteArray(), max - 1));
    }
    assertThat(IndexValues.isSortBucket(sa)).isEqualTo(ea.size() > max - 1);
  }

  @Property(tries = 1000)
  void storedRangesHoldEveryMatchAndWidenOnlyToTheBucketsOfLongBounds(
      @ForAll("tuples") List<KeyValue> value,
      @ForAll("tuples") List<KeyValue> low,
      @ForAll("tuples") List<KeyValue> high,
      @ForAll @IntRange(min = 0, max = 6) int op,
      @ForAll @IntRange(min = 8, max = 40) int max) {
    Bytes v = TupleEncoding.encode(value);
    KeyRange full = range(op, low, high);
    if (full == null) {
      return;
    }
    KeyRange stored = QueryPlan.storedRange(full, max);
    BinaryValue sv = AttributeValue.of(IndexValues.storedSort(v, max));
    boolean inFull = contains(full, AttributeValue.of(v));
    boolean inStored = contains(stored, sv);
    if (inFull) {
      assertThat(inStored).as("a matching value is in the stored range").isTrue();
    } else if (inStored) {
      List<Bytes> longBounds = new ArrayList<>();
      for (KeyValue bound : Arrays.asList(full.lower(), full.upper(), full.prefix())) {
        if (bound != null && ((BinaryValue) bound).value().size() > max - 1) {
          longBounds.add(IndexValues.storedSort(((BinaryValue) bound).value(), max));
        }
      }
      assertThat(longBounds)
          .as("a value outside the range is read only from the bucket of a long bound")
          .contains(sv.value());
    }
  }

  private static boolean contains(KeyRange r, BinaryValue v) {
    if (r.prefix() != null && !v.value().startsWith(((BinaryValue) r.prefix()).value())) {
      return false;
    }
    return r.contains(v);
  }

  /** The full range of a sort condition, as QueryPlan builds it, or null if it is empty. */
  private static KeyRange range(int op, List<KeyValue> low, List<KeyValue> high) {
    Bytes e = TupleEncoding.encode(low);
    BinaryValue ev = AttributeValue.of(e);
    Bytes end = TupleEncoding.prefixEnd(e);
    BinaryValue endv = end == null ? null : AttributeValue.of(end);
    switch (op) {
      case 0: // eq: begins with enc(low)
        return new KeyRange(ev, true, endv, false, ev);
      case 1: // lt
        return new KeyRange(null, false, ev, false, null);
      case 2: // le
        return new KeyRange(null, false, endv, false, null);
      case 3: // gt
        return new KeyRange(endv, true, null, false, null);
      case 4: // ge
        return new KeyRange(ev, true, null, false, null);
      case 5: // between
        Bytes h = TupleEncoding.encode(high);
        if (e.compareTo(h) > 0) {
          return null;
        }
        Bytes hiEnd = TupleEncoding.prefixEnd(h);
        return new KeyRange(ev, true, hiEnd == null ? null : AttributeValue.of(hiEnd), false, null);
      default: // begins with a string prefix after the other components
        if (low.isEmpty() || !(low.get(low.size() - 1) instanceof AttributeValue.StringValue)) {
          return null;
        }
        Bytes p =
            TupleEncoding.encodePrefix(low.subList(0, low.size() - 1), low.get(low.size() - 1));
        Bytes pe = TupleEncoding.prefixEnd(p);
        BinaryValue pv = AttributeValue.of(p);
        return new KeyRange(pv, true, pe == null ? null : AttributeValue.of(pe), false, pv);
    }
  }

  @Test
  void limitsBelowTheLongFormsMinimumAreRefused() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                new DriverLimits(
                    1 << 20,
                    1 << 16,
                    100,
                    2048,
                    100,
                    100,
                    100,
                    10,
                    10,
                    0,
                    dev.stowage.memory.MemorySizeModel.utf8()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("128");
    DriverLimits legacy =
        new DriverLimits(
            1 << 20,
            1 << 16,
            100,
            111,
            120,
            120,
            100,
            10,
            10,
            dev.stowage.memory.MemorySizeModel.utf8());
    assertThat(legacy.maxIndexTupleBytes()).as("the form without long values").isEqualTo(120);
  }

  @Provide
  Arbitrary<List<KeyValue>> tuples() {
    // Few distinct characters and long runs, so that values share long prefixes.
    Arbitrary<KeyValue> strings =
        Arbitraries.strings().withChars("ab\u0000").ofMaxLength(30).map(AttributeValue::of);
    Arbitrary<KeyValue> binaries =
        Arbitraries.bytes()
            .between((byte) -1, (byte) 2)
            .array(byte[].class)
            .ofMaxSize(30)
            .map(b -> (KeyValue) AttributeValue.of(b));
    Arbitrary<KeyValue> numbers =
        Combinators.combine(
                Arbitraries.bigIntegers()
                    .between(
                        new java.math.BigInteger("-99999999999"),
                        new java.math.BigInteger("99999999999")),
                Arbitraries.integers().between(-5, 5))
            .as((u, s) -> (KeyValue) AttributeValue.of(new BigDecimal(u, s)));
    return Arbitraries.oneOf(strings, strings, binaries, numbers).list().ofMaxSize(3);
  }
}
