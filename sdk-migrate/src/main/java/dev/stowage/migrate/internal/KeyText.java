package dev.stowage.migrate.internal;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A key as one line-safe token (no tabs, spaces or newlines), for checkpoint files: each component
 * is {@code S:<base64 of UTF-8>}, {@code N:<decimal>} or {@code B:<base64>}, joined by {@code |}.
 * Stateless.
 */
public final class KeyText {
  /** The token standing for "before the first key". */
  public static final String START = "^";

  private KeyText() {}

  /** Encodes a key. */
  public static String encode(Key key) {
    return key.sort().isPresent()
        ? component(key.partition()) + "|" + component(key.sort().get())
        : component(key.partition());
  }

  /** Decodes a key. @throws IllegalArgumentException on a malformed token */
  public static Key decode(String text) {
    int bar = text.indexOf('|');
    return bar < 0
        ? Key.of(parse(text))
        : Key.of(parse(text.substring(0, bar)), parse(text.substring(bar + 1)));
  }

  private static String component(KeyValue v) {
    if (v instanceof AttributeValue.StringValue s) {
      return "S:" + Base64.getEncoder().encodeToString(s.value().getBytes(StandardCharsets.UTF_8));
    }
    if (v instanceof AttributeValue.NumberValue n) {
      return "N:" + n.value().toString();
    }
    return "B:" + ((AttributeValue.BinaryValue) v).value().toBase64();
  }

  private static KeyValue parse(String c) {
    if (c.length() < 2 || c.charAt(1) != ':') {
      throw new IllegalArgumentException("malformed key token '" + c + "'");
    }
    String body = c.substring(2);
    return switch (c.charAt(0)) {
      case 'S' ->
          AttributeValue.of(new String(Base64.getDecoder().decode(body), StandardCharsets.UTF_8));
      case 'N' -> AttributeValue.of(new BigDecimal(body));
      case 'B' -> AttributeValue.of(Bytes.fromBase64(body));
      default -> throw new IllegalArgumentException("malformed key token '" + c + "'");
    };
  }
}
