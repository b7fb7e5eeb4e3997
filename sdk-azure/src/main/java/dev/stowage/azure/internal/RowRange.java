package dev.stowage.azure.internal;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.KeyRange;
import dev.stowage.spi.Position;
import java.util.ArrayList;
import java.util.List;

/**
 * Translates sort ranges into RowKey filters over forward rows ({@code k} prefix, ascending) or
 * mirror rows ({@code r} prefix, whose ascending order is the descending order of the items).
 *
 * <p>For the primary key the row is {@code k}+enc(sort) and bounds map one to one; in mirror space
 * every comparison flips because {@link KeyCodec#reverse} reverses order. For index rows the
 * composite C = enc(sort) {@code !} … never equals a bound A = enc(value): "sort ≥ v" is "C ≥ A",
 * "sort > v" is "C ≥ A⁺" with A⁺ = A + {@code "} (just above every string starting with A + {@code
 * !}); in mirror space "C ≥ A" is "R ≤ comp(A)~" and "C ≥ A⁺" is "R &lt; comp(A)z", where comp(A)
 * is the reversed form without its terminator and {@code z} is the mirror of {@code !}.
 */
public final class RowRange {
  private final List<String> clauses = new ArrayList<>();

  /** The OData filter for {@code partitionKey} and the collected RowKey clauses. */
  public String filter(String partitionKey) {
    StringBuilder sb = new StringBuilder("PartitionKey eq ").append(Filters.literal(partitionKey));
    for (String c : clauses) {
      sb.append(" and ").append(c);
    }
    return sb.toString();
  }

  private void add(String op, String value) {
    clauses.add("RowKey " + op + " " + Filters.literal(value));
  }

  /** Rows of the primary key within {@code range}, after {@code start}, in either direction. */
  public static RowRange primary(KeyRange range, Position start, boolean descending) {
    RowRange r = new RowRange();
    String prefix = descending ? AzureKeys.MIRROR : AzureKeys.ITEM;
    r.add("ge", prefix);
    r.add("lt", next(prefix));
    if (range.lower() != null) {
      r.bound(range.lower(), true, range.lowerInclusive(), descending);
    }
    if (range.upper() != null) {
      r.bound(range.upper(), false, range.upperInclusive(), descending);
    }
    if (start != null && start.key().sortOrNull() != null) {
      // Strictly after start in the query's direction: above it ascending, below it descending.
      r.bound(start.key().sortOrNull(), !descending, false, descending);
    }
    return r;
  }

  /**
   * Item rows within {@code range} strictly below {@code start} (or the whole range when it is
   * null), ascending: the rows a descending page starting after {@code start} is taken from, on a
   * table without mirror rows.
   */
  public static RowRange primaryBelow(KeyRange range, Position start) {
    RowRange r = primary(range, null, false);
    if (start != null && start.key().sortOrNull() != null) {
      r.bound(start.key().sortOrNull(), false, false, false);
    }
    return r;
  }

  private void bound(KeyValue v, boolean lower, boolean inclusive, boolean descending) {
    String enc = KeyCodec.encode(v);
    if (!descending) {
      add(lower ? (inclusive ? "ge" : "gt") : (inclusive ? "le" : "lt"), AzureKeys.ITEM + enc);
    } else {
      String rev = AzureKeys.MIRROR + KeyCodec.reverse(enc);
      add(lower ? (inclusive ? "le" : "lt") : (inclusive ? "ge" : "gt"), rev);
    }
  }

  /**
   * Rows of an index partition within {@code range}, after every entry starting with {@code start}
   * followed by {@code !} (an entry prefix, see {@link AzureKeys#entryPrefix}: one entry, or a
   * whole run of cut key parts), or from the range's edge when it is null.
   */
  public static RowRange index(KeyRange range, String start, boolean descending) {
    RowRange r = new RowRange();
    String prefix = descending ? AzureKeys.MIRROR : AzureKeys.ITEM;
    r.add("ge", prefix);
    r.add("lt", next(prefix));
    if (range.lower() != null) {
      r.indexLower(encode(range.lower()), !range.lowerInclusive(), descending);
    }
    if (range.upper() != null) {
      r.indexUpper(encode(range.upper()), range.upperInclusive(), descending);
    }
    if (start != null) {
      String p = start;
      if (!descending) {
        r.indexLower(p, true, false);
      } else {
        r.indexUpper(p, false, true);
      }
    }
    return r;
  }

  /**
   * Forward rows of an index partition within {@code range} that come before every entry starting
   * with {@code upper} (an entry prefix, a run, or a composite), or the whole range when it is
   * null, ascending: the rows a descending page is taken from on a table without reverse rows.
   */
  public static RowRange indexBelow(KeyRange range, String upper) {
    RowRange r = index(range, null, false);
    if (upper != null) {
      r.indexUpper(upper, false, false);
    }
    return r;
  }

  /**
   * The forward rows of one run: every entry whose composite starts with {@code run} + {@code !}.
   */
  public static RowRange run(String run) {
    RowRange r = new RowRange();
    r.add("ge", AzureKeys.ITEM + run + KeyCodec.SEP);
    r.add("lt", AzureKeys.ITEM + run + "\"");
    return r;
  }

  /** C ≥ A (or C ≥ A⁺ when {@code plus}). */
  private void indexLower(String a, boolean plus, boolean descending) {
    if (!descending) {
      add("ge", AzureKeys.ITEM + a + (plus ? "\"" : ""));
    } else if (plus) {
      add("lt", AzureKeys.MIRROR + comp(a) + "z");
    } else {
      add("le", AzureKeys.MIRROR + comp(a) + KeyCodec.REVERSE_END);
    }
  }

  /** C &lt; A (or C &lt; A⁺ when {@code plus}). */
  private void indexUpper(String a, boolean plus, boolean descending) {
    if (!descending) {
      add("lt", AzureKeys.ITEM + a + (plus ? "\"" : ""));
    } else if (plus) {
      add("ge", AzureKeys.MIRROR + comp(a) + "z");
    } else {
      add("gt", AzureKeys.MIRROR + comp(a) + KeyCodec.REVERSE_END);
    }
  }

  private static String comp(String a) {
    String r = KeyCodec.reverse(a);
    return r.substring(0, r.length() - 1);
  }

  private static String encode(KeyValue v) {
    Bytes b = ((AttributeValue.BinaryValue) v).value();
    return KeyCodec.encodeBytes(b.toByteArray());
  }

  private static String next(String prefix) {
    return String.valueOf((char) (prefix.charAt(0) + 1));
  }
}
