package dev.stowage.internal;

import dev.stowage.IndexSpec;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.KeyValue;
import java.io.ByteArrayOutputStream;
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
 * <p>A native index ({@link IndexSpec#isNative()}) has no stored values of Stowage's: the backend
 * indexes plain attributes. Its fingerprint only tells cursors apart: SHA-256 of {@code
 * "stowage-native-index-v1" || 00 || list(native name, partition attribute, partition type[, sort
 * attribute, sort type])}, so a cursor of an index redefined since (another backend index, other
 * attributes or types) is refused. Stateless and thread-safe.
 */
public final class IndexValues {
  /** First byte of a fingerprinted partition value (tuples themselves start with {@code 01}). */
  static final int PARTITION_FORMAT = 0x02;

  /** Bytes in front of the tuple in a partition value: the format byte and the fingerprint. */
  static final int PARTITION_PREFIX_BYTES = 5;

  private static final byte[] LABEL = "stowage-index-v1".getBytes(StandardCharsets.US_ASCII);

  private static final byte[] NATIVE_LABEL =
      "stowage-native-index-v1".getBytes(StandardCharsets.US_ASCII);

  private IndexValues() {}

  /** The fingerprint of an index definition: its partition and sort attributes, in order. */
  public static int fingerprint(IndexSpec index) {
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
    Bytes tuple = TupleEncoding.encode(values);
    ByteArrayOutputStream out = new ByteArrayOutputStream(PARTITION_PREFIX_BYTES + tuple.size());
    out.write(PARTITION_FORMAT);
    out.write(fp >>> 24);
    out.write(fp >>> 16);
    out.write(fp >>> 8);
    out.write(fp);
    out.writeBytes(tuple.toByteArray());
    return AttributeValue.of(Bytes.wrap(out.toByteArray()));
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
