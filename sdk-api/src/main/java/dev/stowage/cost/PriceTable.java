package dev.stowage.cost;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Cloud list prices for cost estimates: the dated table Stowage ships ({@code
 * dev/stowage/cost/prices.properties}, which names the pricing page and region of every price),
 * optionally overridden key by key from a file of the same format. Immutable.
 */
public final class PriceTable {
  private static final String RESOURCE = "/dev/stowage/cost/prices.properties";

  private final Map<String, String> values;

  private PriceTable(Map<String, String> values) {
    this.values = Map.copyOf(values);
  }

  /** The shipped table. */
  public static PriceTable defaults() {
    try (InputStream in = PriceTable.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + RESOURCE);
      }
      Properties p = new Properties();
      p.load(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
      return new PriceTable(toMap(p));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The shipped table with the keys of {@code overrides} replaced (a properties file; it may hold
   * only the keys it changes, and should change {@code date} too).
   *
   * @throws IOException if the file cannot be read
   * @throws IllegalArgumentException if a price in it is not a non-negative number
   */
  public static PriceTable load(Path overrides) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(overrides, StandardCharsets.UTF_8)) {
      p.load(r);
    }
    Map<String, String> merged = new TreeMap<>(defaults().values);
    merged.putAll(toMap(p));
    PriceTable t = new PriceTable(merged);
    t.values.forEach(
        (k, v) -> {
          if (k.contains(".") && !k.startsWith("note")) {
            t.price(k);
          }
        });
    return t;
  }

  private static Map<String, String> toMap(Properties p) {
    Map<String, String> m = new TreeMap<>();
    p.stringPropertyNames().forEach(k -> m.put(k, p.getProperty(k).trim()));
    return m;
  }

  /** When the prices were taken, for example {@code 2025-01}. */
  public String date() {
    return values.getOrDefault("date", "unknown");
  }

  /** The currency, {@code USD} in the shipped table. */
  public String currency() {
    return values.getOrDefault("currency", "USD");
  }

  /** Hours in a month for monthly figures (730 in the shipped table). */
  public double hoursPerMonth() {
    return price("hours-per-month");
  }

  /**
   * One price.
   *
   * @throws IllegalArgumentException if the key is missing or not a non-negative number
   */
  public double price(String key) {
    Objects.requireNonNull(key, "key");
    String v = values.get(key);
    if (v == null) {
      throw new IllegalArgumentException("the price table has no '" + key + "'");
    }
    double d;
    try {
      d = Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("price '" + key + "' is not a number: " + v, e);
    }
    if (!(d >= 0) || Double.isInfinite(d)) {
      throw new IllegalArgumentException("price '" + key + "' must be a non-negative number: " + v);
    }
    return d;
  }

  /** Every key and value, sorted by key. */
  public Map<String, String> values() {
    return new TreeMap<>(values);
  }
}
