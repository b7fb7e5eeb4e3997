package dev.stowage.spi;

import dev.stowage.item.AttributeValue.NumberValue;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * The exact correspondence between a backend's native doubles and Stowage values, for drivers of
 * backends that have a double type (Datastore, Azure Tables): one documented mapping everywhere.
 *
 * <p>A finite double reads as the decimal with the fewest significant digits (1 to 17) that
 * converts back to it, the one nearest to it (so {@code 0.1} reads as 0.1, not as the binary
 * fraction it stores). That decimal is a number when it lies in Stowage's number range; NaN, the
 * infinities, negative zero and doubles outside the range read as their text: {@code NaN}, {@code
 * Infinity}, {@code -Infinity}, {@code -0}, or the decimal in {@link BigDecimal#toString()} form
 * ({@code 1E+300}). A number is stored as a double only when it reads back as the same number; this
 * does not depend on the JDK's {@code Double.toString}.
 */
public final class NativeDoubles {
  private NativeDoubles() {}

  /** The shortest decimal converting back to the finite {@code d}, nearest to it. */
  public static BigDecimal shortest(double d) {
    if (d == 0) {
      return BigDecimal.ZERO;
    }
    BigDecimal few = fewDigits(d);
    if (few != null) {
      return few;
    }
    return searched(d);
  }

  /**
   * {@link #shortest} the long way: the nearest decimal of 1, 2, … significant digits that converts
   * back. (Package-private: the tests hold {@link #fewDigits} to it.)
   */
  static BigDecimal searched(double d) {
    BigDecimal exact = new BigDecimal(d);
    for (int p = 1; p < 17; p++) {
      BigDecimal r = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
      if (Double.parseDouble(r.toString()) == d) {
        return r.stripTrailingZeros();
      }
    }
    return exact.round(new MathContext(17, RoundingMode.HALF_EVEN)).stripTrailingZeros();
  }

  /** The number {@code d} reads as, or null when it reads as text. */
  public static NumberValue number(double d) {
    if (!Double.isFinite(d) || negativeZero(d)) {
      return null;
    }
    try {
      return new NumberValue(shortest(d));
    } catch (IllegalArgumentException outOfRange) {
      return null;
    }
  }

  /** The text of a double without a number value (see the class comment). */
  public static String text(double d) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "Infinity" : "-Infinity";
    }
    if (negativeZero(d)) {
      return "-0";
    }
    return shortest(d).toString();
  }

  /** The double whose {@link #text} is {@code s}, or null if there is none. */
  public static Double fromText(String s) {
    switch (s) {
      case "NaN":
        return Double.NaN;
      case "Infinity":
        return Double.POSITIVE_INFINITY;
      case "-Infinity":
        return Double.NEGATIVE_INFINITY;
      case "-0":
        return -0.0;
      default:
        break;
    }
    if (s.isEmpty() || s.length() > 40) {
      return null;
    }
    try {
      double d = Double.parseDouble(s);
      return Double.isFinite(d) && number(d) == null && text(d).equals(s) ? d : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Most significant digits any decimal keeps through a double and back (DBL_DIG). */
  private static final int DOUBLE_DIGITS = 15;

  /** The powers of ten a double holds exactly, 10^0 to 10^15. */
  private static final double[] POWERS_OF_TEN = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15
  };

  /** 10^15: integers below it have at most 15 digits, and a double holds them exactly. */
  private static final double FIFTEEN_DIGITS = 1e15;

  /**
   * {@link #shortest} of a nonzero {@code d} that is a decimal of at most 15 significant digits and
   * 15 fraction digits (most doubles applications store: prices, measures, counters), found without
   * {@link BigDecimal} arithmetic; null for other doubles. For each number of fraction digits
   * {@code s} it takes the integer {@code n} nearest to {@code d·10^s} and checks that {@code n /
   * 10^s} converts to {@code d}: both operands are exact doubles, so the division rounds the
   * decimal exactly as parsing it would. A decimal of at most 15 significant digits that converts
   * to {@code d} is {@code d}'s shortest decimal, the nearest one of its digits (as in {@link
   * #exact}: such decimals keep their digits through a double and back, so no other one of at most
   * 15 digits converts to {@code d}), which is what {@link #searched} finds by trying 1, 2, …
   * digits. Which {@code n} is tried does not matter: one that passes the check is that decimal.
   */
  static BigDecimal fewDigits(double d) {
    for (int s = 0; s < POWERS_OF_TEN.length; s++) {
      double scaled = d * POWERS_OF_TEN[s];
      if (!(Math.abs(scaled) < FIFTEEN_DIGITS)) {
        return null; // more than 15 digits (or a product that overflowed)
      }
      long n = Math.round(scaled);
      if (n != 0 && n / POWERS_OF_TEN[s] == d) {
        return BigDecimal.valueOf(n, s).stripTrailingZeros();
      }
    }
    return null;
  }

  /** The double that reads back as exactly {@code n}, or null if there is none. */
  public static Double exact(BigDecimal n) {
    double d = Double.parseDouble(n.toString());
    // Distinct decimals of at most 15 significant digits convert to distinct doubles (among
    // normal doubles), so none with fewer digits than n converts to d, and d's nearest decimal of
    // n's digits is n itself: n is the shortest decimal of d, which is what number(d) finds by
    // trying 1, 2, … digits. The magnitudes here are normal doubles and in Stowage's range.
    long exponent = (long) n.precision() - n.scale() - 1;
    if (n.precision() <= DOUBLE_DIGITS && exponent >= -100 && exponent <= 100) {
      return d;
    }
    NumberValue back = number(d);
    return back != null && back.value().compareTo(n) == 0 ? d : null;
  }

  private static boolean negativeZero(double d) {
    return d == 0 && Double.doubleToRawLongBits(d) != 0;
  }
}
