package dev.stowage.cli.json;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small, strict JSON reader and writer (RFC 8259) with exact numbers.
 *
 * <p>Values are plain Java objects: {@link Map} (insertion-ordered, string keys) for objects,
 * {@link List} for arrays, {@link String}, {@link BigDecimal} for every number (never a double, so
 * no digit is lost), {@link Boolean}, and {@code null} for JSON null. Stateless and thread-safe.
 */
public final class Json {
  private Json() {}

  /**
   * Parses one JSON value; surrounding whitespace is allowed, trailing content is not.
   *
   * @throws JsonException naming the offset of the first problem
   */
  public static Object parse(String text) {
    Reader r = new Reader(text);
    r.ws();
    Object v = r.value(0);
    r.ws();
    if (r.pos != text.length()) {
      throw r.error("unexpected trailing content");
    }
    return v;
  }

  /** Writes a value compactly on one line. */
  public static String write(Object value) {
    StringBuilder sb = new StringBuilder();
    write(sb, value, -1, 0);
    return sb.toString();
  }

  /** Writes a value indented by two spaces per level. */
  public static String writePretty(Object value) {
    StringBuilder sb = new StringBuilder();
    write(sb, value, 2, 0);
    return sb.toString();
  }

  private static void write(StringBuilder sb, Object v, int indent, int level) {
    if (v == null) {
      sb.append("null");
    } else if (v instanceof String s) {
      quote(sb, s);
    } else if (v instanceof BigDecimal d) {
      sb.append(number(d));
    } else if (v instanceof Number n) {
      sb.append(new BigDecimal(n.toString()));
    } else if (v instanceof Boolean b) {
      sb.append(b);
    } else if (v instanceof Map<?, ?> m) {
      sb.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        sb.append(first ? "" : ",");
        first = false;
        newline(sb, indent, level + 1);
        quote(sb, (String) e.getKey());
        sb.append(indent < 0 ? ":" : ": ");
        write(sb, e.getValue(), indent, level + 1);
      }
      if (!m.isEmpty()) {
        newline(sb, indent, level);
      }
      sb.append('}');
    } else if (v instanceof List<?> l) {
      sb.append('[');
      for (int i = 0; i < l.size(); i++) {
        sb.append(i == 0 ? "" : ",");
        newline(sb, indent, level + 1);
        write(sb, l.get(i), indent, level + 1);
      }
      if (!l.isEmpty()) {
        newline(sb, indent, level);
      }
      sb.append(']');
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

  private static void newline(StringBuilder sb, int indent, int level) {
    if (indent >= 0) {
      sb.append('\n').append(" ".repeat(indent * level));
    }
  }

  private static void quote(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }

  /** Malformed JSON. */
  public static final class JsonException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    JsonException(String message) {
      super(message);
    }
  }

  private static final class Reader {
    private static final int MAX_DEPTH = 512;
    final String s;
    int pos;

    Reader(String s) {
      this.s = s;
    }

    JsonException error(String what) {
      return new JsonException("invalid JSON at offset " + pos + ": " + what);
    }

    void ws() {
      while (pos < s.length() && " \t\r\n".indexOf(s.charAt(pos)) >= 0) {
        pos++;
      }
    }

    Object value(int depth) {
      if (depth > MAX_DEPTH) {
        throw error("nested too deeply");
      }
      if (pos >= s.length()) {
        throw error("unexpected end of input");
      }
      char c = s.charAt(pos);
      switch (c) {
        case '{':
          return object(depth);
        case '[':
          return array(depth);
        case '"':
          return string();
        case 't':
          return literal("true", Boolean.TRUE);
        case 'f':
          return literal("false", Boolean.FALSE);
        case 'n':
          return literal("null", null);
        default:
          if (c == '-' || (c >= '0' && c <= '9')) {
            return number();
          }
          throw error("unexpected character '" + c + "'");
      }
    }

    Object literal(String word, Object v) {
      if (!s.startsWith(word, pos)) {
        throw error("expected " + word);
      }
      pos += word.length();
      return v;
    }

    Map<String, Object> object(int depth) {
      Map<String, Object> m = new LinkedHashMap<>();
      pos++;
      ws();
      if (pos < s.length() && s.charAt(pos) == '}') {
        pos++;
        return m;
      }
      while (true) {
        ws();
        if (pos >= s.length() || s.charAt(pos) != '"') {
          throw error("expected a string key");
        }
        String k = string();
        ws();
        expect(':');
        ws();
        if (m.containsKey(k)) {
          throw error("duplicate key \"" + k + "\"");
        }
        m.put(k, value(depth + 1));
        ws();
        if (pos < s.length() && s.charAt(pos) == ',') {
          pos++;
          continue;
        }
        expect('}');
        return m;
      }
    }

    List<Object> array(int depth) {
      List<Object> l = new ArrayList<>();
      pos++;
      ws();
      if (pos < s.length() && s.charAt(pos) == ']') {
        pos++;
        return l;
      }
      while (true) {
        ws();
        l.add(value(depth + 1));
        ws();
        if (pos < s.length() && s.charAt(pos) == ',') {
          pos++;
          continue;
        }
        expect(']');
        return l;
      }
    }

    void expect(char c) {
      if (pos >= s.length() || s.charAt(pos) != c) {
        throw error("expected '" + c + "'");
      }
      pos++;
    }

    String string() {
      pos++;
      StringBuilder sb = new StringBuilder();
      while (true) {
        if (pos >= s.length()) {
          throw error("unterminated string");
        }
        char c = s.charAt(pos++);
        if (c == '"') {
          return sb.toString();
        }
        if (c < 0x20) {
          throw error("control character in string");
        }
        if (c != '\\') {
          sb.append(c);
          continue;
        }
        if (pos >= s.length()) {
          throw error("unterminated escape");
        }
        char e = s.charAt(pos++);
        switch (e) {
          case '"' -> sb.append('"');
          case '\\' -> sb.append('\\');
          case '/' -> sb.append('/');
          case 'b' -> sb.append('\b');
          case 'f' -> sb.append('\f');
          case 'n' -> sb.append('\n');
          case 'r' -> sb.append('\r');
          case 't' -> sb.append('\t');
          case 'u' -> {
            if (pos + 4 > s.length()) {
              throw error("short unicode escape");
            }
            try {
              sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
            } catch (NumberFormatException ex) {
              throw error("bad unicode escape");
            }
            pos += 4;
          }
          default -> throw error("bad escape \\" + e);
        }
      }
    }

    BigDecimal number() {
      int start = pos;
      if (s.charAt(pos) == '-') {
        pos++;
      }
      int digits = pos;
      while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
        pos++;
      }
      if (pos == digits || (s.charAt(digits) == '0' && pos - digits > 1)) {
        throw error("malformed number");
      }
      if (pos < s.length() && s.charAt(pos) == '.') {
        pos++;
        int f = pos;
        while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
          pos++;
        }
        if (pos == f) {
          throw error("malformed number");
        }
      }
      if (pos < s.length() && (s.charAt(pos) == 'e' || s.charAt(pos) == 'E')) {
        pos++;
        if (pos < s.length() && (s.charAt(pos) == '+' || s.charAt(pos) == '-')) {
          pos++;
        }
        int e = pos;
        while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
          pos++;
        }
        if (pos == e) {
          throw error("malformed number");
        }
      }
      try {
        return new BigDecimal(s.substring(start, pos));
      } catch (NumberFormatException | ArithmeticException ex) {
        throw error("number out of range");
      }
    }
  }
}
