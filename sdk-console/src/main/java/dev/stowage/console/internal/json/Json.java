package dev.stowage.console.internal.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON (RFC 8259) read and written with Jackson's streaming API, as plain Java values: {@link Map}
 * (insertion-ordered, string keys) for objects, {@link List} for arrays, {@link String}, {@link
 * BigDecimal} for every number (never a double, so no digit is lost), {@link Boolean}, and {@code
 * null} for JSON null.
 *
 * <p>Strict: duplicate keys, trailing commas, comments, non-JSON numbers and trailing content are
 * refused, with the character offset of the problem. Stateless and thread-safe.
 */
public final class Json {
  /** Deepest nesting accepted, as for the values Stowage stores (with room for tagged forms). */
  private static final int MAX_DEPTH = 512;

  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          // JsonParser.Feature.STRICT_DUPLICATE_DETECTION: {"a": 1, "a": 2} is an error.
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(MAX_DEPTH)
                  // Items may hold values of many megabytes (they overflow to blob stores).
                  .maxStringLength(Integer.MAX_VALUE)
                  .build())
          .build();

  private static final DefaultPrettyPrinter PRETTY =
      new DefaultPrettyPrinter()
          .withObjectIndenter(new DefaultIndenter("  ", "\n"))
          .withArrayIndenter(new DefaultIndenter("  ", "\n"))
          .withSeparators(
              Separators.createDefaultInstance()
                  .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                  .withObjectEmptySeparator("")
                  .withArrayEmptySeparator(""));

  private Json() {}

  /**
   * Parses one JSON value; surrounding whitespace is allowed, trailing content is not.
   *
   * @throws JsonException naming the offset of the first problem
   */
  public static Object parse(String text) {
    try (JsonParser p = FACTORY.createParser(text)) {
      if (p.nextToken() == null) {
        throw new JsonException("invalid JSON at offset 0: no value");
      }
      Object value = value(p);
      if (p.nextToken() != null) {
        throw new JsonException(
            "invalid JSON at offset "
                + p.currentTokenLocation().getCharOffset()
                + ": unexpected trailing content");
      }
      return value;
    } catch (JsonProcessingException e) {
      long offset = e.getLocation() == null ? -1 : e.getLocation().getCharOffset();
      String message = e.getOriginalMessage();
      int newline = message.indexOf('\n');
      throw new JsonException(
          "invalid JSON at offset "
              + offset
              + ": "
              + (newline < 0 ? message : message.substring(0, newline)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Object value(JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    switch (t) {
      case START_OBJECT:
        {
          Map<String, Object> m = new LinkedHashMap<>();
          for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
            p.nextToken();
            m.put(name, value(p));
          }
          return m;
        }
      case START_ARRAY:
        {
          List<Object> l = new ArrayList<>();
          while (p.nextToken() != JsonToken.END_ARRAY) {
            l.add(value(p));
          }
          return l;
        }
      case VALUE_STRING:
        return p.getText();
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
        // The exact decimal of the text, never through a double.
        return p.getDecimalValue();
      case VALUE_TRUE:
        return Boolean.TRUE;
      case VALUE_FALSE:
        return Boolean.FALSE;
      case VALUE_NULL:
        return null;
      default:
        throw new JsonException(
            "invalid JSON at offset "
                + p.currentTokenLocation().getCharOffset()
                + ": unexpected "
                + t);
    }
  }

  /** Writes a value compactly on one line. */
  public static String write(Object value) {
    return write(value, false);
  }

  /** Writes a value indented by two spaces per level. */
  public static String writePretty(Object value) {
    return write(value, true);
  }

  private static String write(Object value, boolean pretty) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      if (pretty) {
        g.setPrettyPrinter(PRETTY);
      }
      write(g, value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private static void write(JsonGenerator g, Object v) throws IOException {
    if (v == null) {
      g.writeNull();
    } else if (v instanceof String s) {
      g.writeString(s);
    } else if (v instanceof BigDecimal d) {
      g.writeNumber(number(d));
    } else if (v instanceof Number n) {
      g.writeNumber(number(new BigDecimal(n.toString())));
    } else if (v instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (v instanceof Map<?, ?> m) {
      g.writeStartObject();
      for (Map.Entry<?, ?> e : m.entrySet()) {
        g.writeFieldName((String) e.getKey());
        write(g, e.getValue());
      }
      g.writeEndObject();
    } else if (v instanceof List<?> l) {
      g.writeStartArray();
      for (Object x : l) {
        write(g, x);
      }
      g.writeEndArray();
    } else {
      throw new IllegalArgumentException("not a JSON value: " + v.getClass().getName());
    }
  }

  /**
   * A decimal as JSON text: plain digits ({@code 10}, not {@code 1E+1}) unless that would take more
   * than 40 digits, then scientific notation.
   */
  public static String number(BigDecimal d) {
    int digits = d.precision() - d.scale();
    return d.scale() > 40 || digits > 40 ? d.toString() : d.toPlainString();
  }

  /** Malformed JSON. */
  public static final class JsonException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    JsonException(String message) {
      super(message);
    }
  }
}
