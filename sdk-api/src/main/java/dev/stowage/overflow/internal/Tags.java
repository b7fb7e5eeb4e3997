package dev.stowage.overflow.internal;

/**
 * Type tags of Stowage's canonical value encoding ({@code dev.stowage.internal.ValueWire}); the
 * overflow blob codec streams the same format. Never renumber: they are part of the stored format.
 */
final class Tags {
  static final int STRING = 1;
  static final int NUMBER = 2;
  static final int BINARY = 3;
  static final int FALSE = 4;
  static final int TRUE = 5;
  static final int NULL = 6;
  static final int LIST = 7;
  static final int MAP = 8;
  static final int STRING_SET = 9;
  static final int NUMBER_SET = 10;
  static final int BINARY_SET = 11;

  /** Deepest nesting accepted when reading, the same bound as ValueWire's. */
  static final int MAX_DEPTH = 64;

  private Tags() {}
}
