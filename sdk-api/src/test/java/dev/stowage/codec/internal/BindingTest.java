package dev.stowage.codec.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.internal.ValueWire;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Key;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.HexFormat;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * The associated data is exactly docs/FORMAT.md's, built here independently from ValueWire's
 * encodings: every envelope written before must keep decrypting, so not one byte may move.
 */
class BindingTest {
  @Property(tries = 400)
  void matchesTheSpecification(
      @ForAll @Size(max = 200) String table,
      @ForAll @Size(max = 200) String attribute,
      @ForAll @Size(max = 200) String partition,
      @ForAll @Size(max = 300) byte[] sort,
      @ForAll @IntRange(min = 0, max = 4) int shape,
      @ForAll @IntRange(min = 0, max = 3) int headerShape) {
    Key key;
    try {
      AttributeValue.of(table);
      AttributeValue.of(attribute);
      key =
          switch (shape) {
            case 0 -> Key.of(partition);
            case 1 -> Key.of(partition, partition + "~");
            case 2 -> Key.of(AttributeValue.of(partition), AttributeValue.of(Bytes.of(sort)));
            case 3 -> Key.of(partition, sort.length);
            default ->
                Key.of(
                    AttributeValue.of(Bytes.of(sort)), AttributeValue.of(new BigDecimal("42.5")));
          };
    } catch (IllegalArgumentException invalidKey) {
      return;
    }
    int flags = headerShape == 0 ? Envelope.FLAG_ENCRYPTED : Envelope.FLAG_ENCRYPTED | 1;
    int dictionary = headerShape < 2 ? 0 : headerShape == 2 ? 300 : Integer.MAX_VALUE;
    byte[] header = new byte[Envelope.headerLength(dictionary)];
    Envelope.writeHeader(header, flags, dictionary);
    byte[] expected = specified(header, table, key, attribute);

    assertThat(Binding.forWrite(flags, dictionary, table, key, attribute)).isEqualTo(expected);
    byte[] stored = new byte[3 + header.length + 10];
    System.arraycopy(header, 0, stored, 3, header.length);
    assertThat(Binding.forRead(stored, 3, header.length, table, key, attribute))
        .isEqualTo(expected);
  }

  /** A fixed vector, written out by hand from docs/FORMAT.md. */
  @Test
  void fixedVector() {
    byte[] ad = Binding.forWrite(Envelope.FLAG_ENCRYPTED, 0, "orders", Key.of("c#1", 7), "sécret");
    assertThat(HexFormat.of().formatHex(ad))
        .isEqualTo(
            "04"
                + "f5530102" // header
                + "066f7264657273" // str("orders")
                + "0103632331" // value("c#1")
                + "01" // a sort key follows
                + "020137" // value(7): number tag, str("7")
                + "0773c3a963726574"); // str("sécret")
  }

  @Test
  void nonAsciiAndSupplementaryKeyStrings() {
    byte[] header = new byte[Envelope.FIXED_HEADER];
    Envelope.writeHeader(header, Envelope.FLAG_ENCRYPTED, 0);
    for (String s : new String[] {"é", "日本", "a😀b", "x".repeat(130), "é".repeat(70)}) {
      Key key = Key.of(s, s + "z");
      assertThat(Binding.forWrite(Envelope.FLAG_ENCRYPTED, 0, s, key, s))
          .as(s)
          .isEqualTo(specified(header, s, key, s));
    }
  }

  private static byte[] specified(byte[] header, String table, Key key, String attribute) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(header.length);
    out.writeBytes(header);
    out.writeBytes(withoutTag(ValueWire.encode(AttributeValue.of(table))));
    out.writeBytes(ValueWire.encode(key.partition()));
    if (key.sortOrNull() == null) {
      out.write(0);
    } else {
      out.write(1);
      out.writeBytes(ValueWire.encode(key.sortOrNull()));
    }
    out.writeBytes(withoutTag(ValueWire.encode(AttributeValue.of(attribute))));
    return out.toByteArray();
  }

  private static byte[] withoutTag(byte[] encoded) {
    return Arrays.copyOfRange(encoded, 1, encoded.length);
  }
}
