package dev.stowage;

/**
 * How Stowage stores one attribute: compressed, encrypted, both (compress then encrypt) or neither.
 * Declared in the {@link TableSpec}; reading is driven by each stored value's own envelope, so
 * values written under an earlier policy still read.
 *
 * @param compressed compress the value with zstd when that makes it smaller
 * @param encrypted encrypt the value with the table's AEAD key, bound to table, key and name
 */
public record AttributePolicy(boolean compressed, boolean encrypted) {
  /** Stored as is. */
  public static final AttributePolicy PLAIN = new AttributePolicy(false, false);

  /** Compressed. */
  public static final AttributePolicy COMPRESSED = new AttributePolicy(true, false);

  /** Encrypted. */
  public static final AttributePolicy ENCRYPTED = new AttributePolicy(false, true);

  /** Compressed, then encrypted. */
  public static final AttributePolicy COMPRESSED_AND_ENCRYPTED = new AttributePolicy(true, true);

  /** True if the stored form differs from the plain value. */
  public boolean encoded() {
    return compressed || encrypted;
  }
}
