package dev.stowage.codec;

import dev.stowage.AttributePolicy;
import dev.stowage.UnsupportedCapabilityException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Key;

/** Compression and encryption of individual attributes. Thread-safe. */
public final class Codecs {
  private Codecs() {}

  /** Compression with default settings and no encryption keys. */
  public static Codecs defaults() {
    return new Codecs();
  }

  /**
   * Encodes one attribute for storage according to its policy.
   *
   * @param table the logical table name (bound into encryption)
   * @param key the item's key (bound into encryption)
   * @param attribute the attribute name (bound into encryption)
   */
  public AttributeValue encode(
      String table, Key key, String attribute, AttributePolicy policy, AttributeValue plain) {
    if (policy.encoded()) {
      throw new UnsupportedCapabilityException("CODECS", "attribute codecs are not available");
    }
    return plain;
  }

  /** Decodes one stored attribute, driven by its envelope. */
  public AttributeValue decode(
      String table, Key key, String attribute, AttributePolicy policy, AttributeValue stored) {
    return stored;
  }
}
