package dev.stowage.internal;

import dev.stowage.IndexSpec;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.KeyValue;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * The stored partition value of a secondary index, which carries a fingerprint of the index's
 * definition (specified in docs/FORMAT.md, "Index tuples"):
 *
 * <pre>
 * partition value := 02 || fingerprint (4 bytes) || tuple(partition values)
 * fingerprint     := SHA-256("stowage-index-v1" || 00 || list(partition attributes)
 *                                                 || list(sort attributes))[0..4)
 * list(names)     := varint count || count × (varint UTF-8 length || UTF-8 bytes)
 * </pre>
 *
 * <p>Index queries match partition values exactly, so values written under another definition of an
 * index of the same name (other partition or sort attributes) never match a query of the current
 * one: they are stale until a backfill rewrites them, and are never returned meanwhile. The
 * projection is not part of the fingerprint (it changes no stored value).
 *
 * <p>Values longer than the backend indexes ({@code DriverLimits.maxIndexTupleBytes}, T) are stored
 * in a long form (docs/FORMAT.md, "Long index values"):
 *
 * <pre>
 * long partition value := 03 || fingerprint || tuple[0..64) || SHA-256(tuple)      (101 bytes)
 * sort bucket          := tuple[0..T-1) || 02                                      (T bytes)
 * </pre>
 *
 * A partition value is short while it has at most T bytes, a sort tuple while it has at most T - 1.
 * Every complete tuple ends with {@code 00}, {@code 01}, {@code 31} or {@code FF}, so a stored sort
 * value ending with {@code 02} is a bucket; buckets sort after every short value they start with
 * and keep the order of the values wherever their prefixes differ.
 *
 * <p>A native index ({@link IndexSpec#isNative()}) has no stored values of Stowage's: the backend
 * indexes plain attributes, so it has no long forms or buckets either. Its fingerprint only tells
 * cursors apart: SHA-256 of {@code "stowage-native-index-v1" || 00 || list(native name, partition
 * attribute, partition type[, sort attribute, sort type])}, so a cursor of an index redefined since
 * (another backend index, other attributes or types) is refused. Stateless and thread-safe.
 */
public final class IndexValues {
  /** First byte of a fingerprinted partition value (tuples themselves start with {@code 01}). */
  static final int PARTITION_FORMAT = 0x02;

  /** First byte of a long partition value (a digest of a tuple too long for the backend). */
  static final int LONG_PARTITION_FORMAT = 0x03;

  /** Bytes in front of the tuple in a partition value: the format byte and the fingerprint. */
  static final int PARTITION_PREFIX_BYTES = 5;

  /** Bytes of the tuple a long partition value keeps in front of the digest. */
  static final int LONG_PARTITION_TUPLE_PREFIX = 64;

  /** Length of a long partition value: format, fingerprint, tuple prefix, SHA-256. */
  static final int LONG_PARTITION_BYTES = PARTITION_PREFIX_BYTES + LONG_PARTITION_TUPLE_PREFIX + 32;

  /** Last byte of a sort bucket; no complete tuple ends with it. */
  static final int SORT_BUCKET_MARKER = 0x02;

  private static final byte[] LABEL = "stowage-index-v1".getBytes(StandardCharsets.US_ASCII);

  private static final byte[] NATIVE_LABEL =
      "stowage-native-index-v1".getBytes(StandardCharsets.US_ASCII);

  private IndexValues() {}

  /**
   * Fingerprints computed so far, by definition: every query page needs its index's (for the
   * partition value, and to check a cursor's index), and a SHA-256 per page is not free. Bounded:
   * cleared when it grows past {@value #FINGERPRINT_CACHE_SIZE} definitions.
   */
  private static final java.util.concurrent.ConcurrentHashMap<IndexSpec, Integer> FINGERPRINTS =
      new java.util.concurrent.ConcurrentHashMap<>();

  private static final int FINGERPRINT_CACHE_SIZE = 1024;

  /** The fingerprint of an index definition: its partition and sort attributes, in order. */
  public static int fingerprint(IndexSpec index) {
    Integer known = FINGERPRINTS.get(index);
    if (known != null) {
      return known;
    }
    int fp = computeFingerprint(index);
    if (FINGERPRINTS.size() >= FINGERPRINT_CACHE_SIZE) {
      FINGERPRINTS.clear();
    }
    FINGERPRINTS.put(index, fp);
    return fp;
  }

  private static int computeFingerprint(IndexSpec index) {
    ValueWire.Writer w = new ValueWire.Writer();
    byte[] label = LABEL;
    if (index.isNative()) {
      label = NATIVE_LABEL;
      var key = index.nativeIndex().key();
      List<String> parts = new java.util.ArrayList<>();
      parts.add(index.nativeIndex().name());
      parts.add(key.partitionName());
      parts.add(key.partitionType().name());
      key.sortName().ifPresent(parts::add);
      key.sortType().ifPresent(t -> parts.add(t.name()));
      names(w, parts);
    } else {
      names(w, index.partitionAttributes());
      names(w, index.sortAttributes());
    }
    MessageDigest sha = sha256();
    sha.update(label);
    sha.update((byte) 0);
    byte[] digest = sha.digest(w.toByteArray());
    return ((digest[0] & 0xFF) << 24)
        | ((digest[1] & 0xFF) << 16)
        | ((digest[2] & 0xFF) << 8)
        | (digest[3] & 0xFF);
  }

  /**
   * The stored partition value of {@code index} for the given partition values.
   *
   * @throws IllegalArgumentException for a native index, which has no stored value of Stowage's
   */
  public static AttributeValue.BinaryValue partition(
      IndexSpec index, List<? extends KeyValue> values) {
    if (index.isNative()) {
      throw new IllegalArgumentException(
          "native index '" + index.name() + "' has no synthesized partition value");
    }
    return partition(fingerprint(index), values);
  }

  /**
   * The stored partition value of the index whose {@link #fingerprint} is {@code fp} for the given
   * partition values.
   */
  static AttributeValue.BinaryValue partition(int fp, List<? extends KeyValue> values) {
    byte[] head = {
      (byte) PARTITION_FORMAT, (byte) (fp >>> 24), (byte) (fp >>> 16), (byte) (fp >>> 8), (byte) fp
    };
    return AttributeValue.of(Bytes.wrap(TupleEncoding.encodeAfter(head, values)));
  }

  /**
   * The stored form of a partition value {@code 02 || fingerprint || tuple} (as {@link #partition}
   * makes it) on a backend indexing values of at most {@code maxTupleBytes}: the value itself when
   * it fits, else {@code 03 || fingerprint || tuple[0..64) || SHA-256(tuple)}.
   */
  static Bytes storedPartition(Bytes value, long maxTupleBytes) {
    if (value.size() <= maxTupleBytes) {
      return value;
    }
    byte[] v = value.toByteArray();
    byte[] out = new byte[LONG_PARTITION_BYTES];
    out[0] = (byte) LONG_PARTITION_FORMAT;
    System.arraycopy(v, 1, out, 1, 4);
    System.arraycopy(
        v,
        PARTITION_PREFIX_BYTES,
        out,
        PARTITION_PREFIX_BYTES,
        Math.min(LONG_PARTITION_TUPLE_PREFIX, v.length - PARTITION_PREFIX_BYTES));
    MessageDigest sha = sha256();
    sha.update(v, PARTITION_PREFIX_BYTES, v.length - PARTITION_PREFIX_BYTES);
    byte[] digest = sha.digest();
    System.arraycopy(
        digest, 0, out, PARTITION_PREFIX_BYTES + LONG_PARTITION_TUPLE_PREFIX, digest.length);
    return Bytes.wrap(out);
  }

  /**
   * The stored form of a sort tuple, or of any byte string bounding sort tuples, on a backend
   * indexing values of at most {@code maxTupleBytes}: the bytes themselves when they have at most
   * {@code maxTupleBytes - 1}, else their bucket, the first {@code maxTupleBytes - 1} bytes
   * followed by {@code 02}. The map keeps order ({@code a <= b} gives {@code stored(a) <=
   * stored(b)}) and is the identity on short values; only values sharing a bucket compare equal.
   */
  static Bytes storedSort(Bytes tuple, long maxTupleBytes) {
    int keep = (int) Math.min(Integer.MAX_VALUE - 1, maxTupleBytes - 1);
    if (tuple.size() <= keep) {
      return tuple;
    }
    byte[] out = java.util.Arrays.copyOf(tuple.toByteArray(), keep + 1);
    out[keep] = (byte) SORT_BUCKET_MARKER;
    return Bytes.wrap(out);
  }

  /** True if a stored sort value is a bucket of long sort values (ends with {@code 02}). */
  static boolean isSortBucket(Bytes stored) {
    return stored.size() > 0 && (stored.byteAt(stored.size() - 1) & 0xFF) == SORT_BUCKET_MARKER;
  }

  /** True if a stored partition value is the long form of a longer one. */
  static boolean isLongPartition(Bytes stored) {
    return stored.size() > 0 && (stored.byteAt(0) & 0xFF) == LONG_PARTITION_FORMAT;
  }

  /** The fingerprint as 8 lowercase hex digits, for messages. */
  public static String hex(int fingerprint) {
    return String.format("%08x", fingerprint);
  }

  private static void names(ValueWire.Writer w, List<String> names) {
    w.varint(names.size());
    names.forEach(w::string);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }
}
