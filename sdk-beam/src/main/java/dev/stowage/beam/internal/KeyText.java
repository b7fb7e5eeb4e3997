package dev.stowage.beam.internal;

import dev.stowage.item.CanonicalEncoding;
import dev.stowage.item.Key;
import java.util.HexFormat;

/**
 * A key as text for grouping: the hex of each key value's canonical encoding, so equal keys (of
 * either side of a migration, whatever their backend) give equal text.
 */
public final class KeyText {
  private KeyText() {}

  /** The text of {@code key}. */
  public static String of(Key key) {
    String p = HexFormat.of().formatHex(CanonicalEncoding.encode(key.partition()));
    return key.sortOrNull() == null
        ? p
        : p + "/" + HexFormat.of().formatHex(CanonicalEncoding.encode(key.sortOrNull()));
  }
}
