package dev.stowage.beam.internal;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.spi.StoredItems;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.CustomCoder;

/**
 * Encodes an {@link Item} exactly, reserved attributes included, so stored forms (encoded values,
 * overflow pointers, index values) pass between a pipeline's steps unchanged; decoded items
 * round-trip the same way. Numbers keep their unscaled value and scale.
 */
public final class ItemCoder extends CustomCoder<Item> {
  private static final long serialVersionUID = 1L;
  private static final ItemCoder INSTANCE = new ItemCoder();
  private static final int STRING = 1;
  private static final int NUMBER = 2;
  private static final int BINARY = 3;
  private static final int TRUE = 4;
  private static final int FALSE = 5;
  private static final int NULL = 6;
  private static final int LIST = 7;
  private static final int MAP = 8;
  private static final int STRING_SET = 9;
  private static final int NUMBER_SET = 10;
  private static final int BINARY_SET = 11;

  /** Deeper nesting than any backend stores (DynamoDB: 32) is refused rather than overflowing. */
  private static final int MAX_DEPTH = 64;

  private ItemCoder() {}

  /** The coder. */
  public static ItemCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(Item item, OutputStream out) throws IOException {
    DataOutputStream d = new DataOutputStream(out);
    d.writeInt(item.size());
    for (Map.Entry<String, AttributeValue> e : item.attributes().entrySet()) {
      writeString(d, e.getKey());
      write(d, e.getValue());
    }
    d.flush();
  }

  @Override
  public Item decode(InputStream in) throws IOException {
    DataInputStream d = new DataInputStream(in);
    int n = count(d);
    Map<String, AttributeValue> attributes = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      String name = readString(d);
      attributes.put(name, read(d, 0));
    }
    return StoredItems.of(attributes);
  }

  @Override
  public void verifyDeterministic() throws NonDeterministicException {
    // Items are values, never grouping keys: the pipeline groups by key text (KeyText).
    throw new NonDeterministicException(this, "items are not meant to be grouping keys");
  }

  private static void write(DataOutputStream d, AttributeValue v) throws IOException {
    if (v instanceof AttributeValue.StringValue s) {
      d.writeByte(STRING);
      writeString(d, s.value());
    } else if (v instanceof AttributeValue.NumberValue n) {
      d.writeByte(NUMBER);
      writeNumber(d, n.value());
    } else if (v instanceof AttributeValue.BinaryValue b) {
      d.writeByte(BINARY);
      writeBytes(d, b.value());
    } else if (v instanceof AttributeValue.BooleanValue b) {
      d.writeByte(b.value() ? TRUE : FALSE);
    } else if (v instanceof AttributeValue.NullValue) {
      d.writeByte(NULL);
    } else if (v instanceof AttributeValue.ListValue l) {
      d.writeByte(LIST);
      d.writeInt(l.values().size());
      for (AttributeValue e : l.values()) {
        write(d, e);
      }
    } else if (v instanceof AttributeValue.MapValue m) {
      d.writeByte(MAP);
      d.writeInt(m.values().size());
      for (Map.Entry<String, AttributeValue> e : m.values().entrySet()) {
        writeString(d, e.getKey());
        write(d, e.getValue());
      }
    } else if (v instanceof AttributeValue.StringSetValue s) {
      d.writeByte(STRING_SET);
      d.writeInt(s.values().size());
      for (String e : s.values()) {
        writeString(d, e);
      }
    } else if (v instanceof AttributeValue.NumberSetValue s) {
      d.writeByte(NUMBER_SET);
      d.writeInt(s.values().size());
      for (BigDecimal e : s.values()) {
        writeNumber(d, e);
      }
    } else if (v instanceof AttributeValue.BinarySetValue s) {
      d.writeByte(BINARY_SET);
      d.writeInt(s.values().size());
      for (Bytes e : s.values()) {
        writeBytes(d, e);
      }
    } else {
      throw new CoderException("unknown attribute value type " + v.getClass().getName());
    }
  }

  private static AttributeValue read(DataInputStream d, int depth) throws IOException {
    if (depth > MAX_DEPTH) {
      throw new CoderException("attribute values nested deeper than " + MAX_DEPTH);
    }
    int tag = d.readUnsignedByte();
    switch (tag) {
      case STRING:
        return new AttributeValue.StringValue(readString(d));
      case NUMBER:
        return new AttributeValue.NumberValue(readNumber(d));
      case BINARY:
        return new AttributeValue.BinaryValue(readBytes(d));
      case TRUE:
        return new AttributeValue.BooleanValue(true);
      case FALSE:
        return new AttributeValue.BooleanValue(false);
      case NULL:
        return new AttributeValue.NullValue();
      case LIST:
        {
          int n = count(d);
          List<AttributeValue> values = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            values.add(read(d, depth + 1));
          }
          return new AttributeValue.ListValue(values);
        }
      case MAP:
        {
          int n = count(d);
          Map<String, AttributeValue> values = new LinkedHashMap<>();
          for (int i = 0; i < n; i++) {
            String k = readString(d);
            values.put(k, read(d, depth + 1));
          }
          return new AttributeValue.MapValue(values);
        }
      case STRING_SET:
        {
          int n = count(d);
          List<String> values = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            values.add(readString(d));
          }
          return new AttributeValue.StringSetValue((java.util.Collection<String>) values);
        }
      case NUMBER_SET:
        {
          int n = count(d);
          List<BigDecimal> values = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            values.add(readNumber(d));
          }
          return new AttributeValue.NumberSetValue((java.util.Collection<BigDecimal>) values);
        }
      case BINARY_SET:
        {
          int n = count(d);
          List<Bytes> values = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            values.add(readBytes(d));
          }
          return new AttributeValue.BinarySetValue((java.util.Collection<Bytes>) values);
        }
      default:
        throw new CoderException("unknown attribute value tag " + tag);
    }
  }

  private static int count(DataInputStream d) throws IOException {
    int n = d.readInt();
    if (n < 0) {
      throw new CoderException("negative count " + n);
    }
    return n;
  }

  private static void writeString(DataOutputStream d, String s) throws IOException {
    byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    d.writeInt(b.length);
    d.write(b);
  }

  private static String readString(DataInputStream d) throws IOException {
    return new String(readArray(d), java.nio.charset.StandardCharsets.UTF_8);
  }

  private static void writeBytes(DataOutputStream d, Bytes b) throws IOException {
    byte[] a = b.toByteArray();
    d.writeInt(a.length);
    d.write(a);
  }

  private static Bytes readBytes(DataInputStream d) throws IOException {
    return Bytes.wrap(readArray(d));
  }

  private static byte[] readArray(DataInputStream d) throws IOException {
    int n = count(d);
    byte[] b = new byte[n];
    d.readFully(b);
    return b;
  }

  private static void writeNumber(DataOutputStream d, BigDecimal v) throws IOException {
    d.writeInt(v.scale());
    byte[] unscaled = v.unscaledValue().toByteArray();
    d.writeInt(unscaled.length);
    d.write(unscaled);
  }

  private static BigDecimal readNumber(DataInputStream d) throws IOException {
    int scale = d.readInt();
    byte[] unscaled = readArray(d);
    if (unscaled.length == 0) {
      throw new CoderException("empty number");
    }
    return new BigDecimal(new BigInteger(unscaled), scale);
  }
}
