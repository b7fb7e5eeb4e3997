package dev.stowage.azure.internal;

/**
 * OData filter literals. Stowage's own key encodings never contain a quote, but an adopted table's
 * keys may contain any character Azure allows, so every key in a filter goes through {@link
 * #literal}.
 */
final class Filters {
  private Filters() {}

  /** {@code s} as an OData string literal: in single quotes, each quote doubled. */
  static String literal(String s) {
    return "'" + s.replace("'", "''") + "'";
  }
}
