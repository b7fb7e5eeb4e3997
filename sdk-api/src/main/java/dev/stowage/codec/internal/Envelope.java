package dev.stowage.codec.internal;

import java.util.zip.CRC32C;

/**
 * The attribute envelope's header layout (docs/FORMAT.md, "Attribute envelope"): magic, format
 * version, flags and the optional dictionary id. Stateless helpers; the constants are part of the
 * stored format and must never change meaning.
 */
public final class Envelope {
  /**
   * First magic byte: 0xF5 never occurs in UTF-8 text, so text stored as binary rarely starts so.
   */
  public static final byte MAGIC_0 = (byte) 0xF5;

  /** Second magic byte, ASCII 'S'. */
  public static final byte MAGIC_1 = (byte) 0x53;

  /** The only format version written and read today. */
  public static final int VERSION_1 = 1;

  /** Flag: the payload is a zstd frame. */
  public static final int FLAG_COMPRESSED = 0x01;

  /** Flag: the payload is a Tink AEAD ciphertext. */
  public static final int FLAG_ENCRYPTED = 0x02;

  /** Flag: a dictionary id follows the flags and the zstd frame was made with that dictionary. */
  public static final int FLAG_DICTIONARY = 0x04;

  /**
   * The payload kind, bits 3-4 of the flags: 0 when the payload is the value's serialisation, else
   * {@link #KIND_BINARY} or {@link #KIND_STRING}. Only encrypted, uncompressed envelopes carry a
   * kind: their payload then goes to Tink as the value's own bytes, without a serialisation copied
   * in front of it.
   */
  public static final int PAYLOAD_KIND = 0x18;

  /** Payload kind: the payload is a binary value's bytes. */
  public static final int KIND_BINARY = 0x08;

  /** Payload kind: the payload is a string value's UTF-8 encoding. */
  public static final int KIND_STRING = 0x10;

  /** Every flag version 1 defines; any other bit set is an integrity error. */
  public static final int KNOWN_FLAGS =
      FLAG_COMPRESSED | FLAG_ENCRYPTED | FLAG_DICTIONARY | PAYLOAD_KIND;

  /** Bytes of the trailing CRC-32C on envelopes that are not encrypted. */
  public static final int CRC_LENGTH = 4;

  /** Magic, version and flags. */
  public static final int FIXED_HEADER = 4;

  private Envelope() {}

  /** Length of the header for the given dictionary id (0 for none). */
  public static int headerLength(int dictionaryId) {
    return FIXED_HEADER + (dictionaryId == 0 ? 0 : varintLength(dictionaryId));
  }

  /**
   * Writes the header at the start of {@code out} and returns its length.
   *
   * @param dictionaryId 0 for no dictionary, otherwise the id, which sets {@link #FLAG_DICTIONARY}
   */
  public static int writeHeader(byte[] out, int flags, int dictionaryId) {
    return writeHeader(out, 0, flags, dictionaryId);
  }

  /** {@link #writeHeader(byte[], int, int)} at {@code offset}; returns the header's end. */
  public static int writeHeader(byte[] out, int offset, int flags, int dictionaryId) {
    out[offset] = MAGIC_0;
    out[offset + 1] = MAGIC_1;
    out[offset + 2] = VERSION_1;
    out[offset + 3] = (byte) (dictionaryId == 0 ? flags : flags | FLAG_DICTIONARY);
    int pos = offset + FIXED_HEADER;
    if (dictionaryId != 0) {
      long v = dictionaryId;
      while ((v & ~0x7FL) != 0) {
        out[pos++] = (byte) ((v & 0x7F) | 0x80);
        v >>>= 7;
      }
      out[pos++] = (byte) v;
    }
    return pos;
  }

  /** Appends the big-endian CRC-32C of {@code out[0, length)} at {@code length}. */
  public static void writeCrc(byte[] out, int length) {
    int crc = crc(out, length);
    out[length] = (byte) (crc >>> 24);
    out[length + 1] = (byte) (crc >>> 16);
    out[length + 2] = (byte) (crc >>> 8);
    out[length + 3] = (byte) crc;
  }

  /**
   * True if the last four bytes of the envelope {@code b[offset, offset + length)} are the CRC-32C
   * of its bytes before them.
   */
  public static boolean crcMatches(byte[] b, int offset, int length) {
    int n = offset + length - CRC_LENGTH;
    int stored =
        ((b[n] & 0xFF) << 24)
            | ((b[n + 1] & 0xFF) << 16)
            | ((b[n + 2] & 0xFF) << 8)
            | (b[n + 3] & 0xFF);
    return crc(b, offset, length - CRC_LENGTH) == stored;
  }

  private static int crc(byte[] b, int length) {
    return crc(b, 0, length);
  }

  private static int crc(byte[] b, int offset, int length) {
    CRC32C c = new CRC32C();
    c.update(b, offset, length);
    return (int) c.getValue();
  }

  private static int varintLength(long v) {
    int n = 1;
    while ((v & ~0x7FL) != 0) {
      v >>>= 7;
      n++;
    }
    return n;
  }

  /**
   * A parsed header.
   *
   * @param flags the flags byte, dictionary bit included
   * @param dictionaryId the dictionary id, 0 when none
   * @param length bytes the header occupies; the body starts there
   */
  public record Header(int flags, int dictionaryId, int length) {
    /** True if the payload is compressed. */
    public boolean compressed() {
      return (flags & FLAG_COMPRESSED) != 0;
    }

    /** True if the payload is encrypted. */
    public boolean encrypted() {
      return (flags & FLAG_ENCRYPTED) != 0;
    }

    /**
     * The payload kind: 0 (a serialisation), {@link Envelope#KIND_BINARY} or {@link
     * Envelope#KIND_STRING}.
     */
    public int payloadKind() {
      return flags & PAYLOAD_KIND;
    }
  }

  /**
   * Parses the header of the value {@code b[offset, offset + length)}, which starts with the magic.
   * The header's {@link Header#length} counts from {@code offset}.
   *
   * @throws FormatException with a message saying what is wrong
   */
  public static Header parseHeader(byte[] b, int offset, int length) {
    if (length < FIXED_HEADER) {
      throw new FormatException("truncated envelope: " + length + " bytes, header needs 4");
    }
    int version = b[offset + 2] & 0xFF;
    if (version != VERSION_1) {
      throw new FormatException(
          "unknown envelope format version " + version + " (this release reads version 1)");
    }
    int flags = b[offset + 3] & 0xFF;
    if ((flags & ~KNOWN_FLAGS) != 0) {
      throw new FormatException("unknown envelope flags 0x" + Integer.toHexString(flags));
    }
    boolean dict = (flags & FLAG_DICTIONARY) != 0;
    if (dict && (flags & FLAG_COMPRESSED) == 0) {
      throw new FormatException("envelope flags name a dictionary without compression");
    }
    int kind = flags & PAYLOAD_KIND;
    if (kind == PAYLOAD_KIND) {
      throw new FormatException(
          "unknown envelope payload kind in flags 0x" + Integer.toHexString(flags));
    }
    if (kind != 0 && (flags & (FLAG_ENCRYPTED | FLAG_COMPRESSED)) != FLAG_ENCRYPTED) {
      throw new FormatException(
          "envelope flags 0x"
              + Integer.toHexString(flags)
              + " give a payload kind to an envelope that is not encrypted or is compressed");
    }
    int pos = FIXED_HEADER;
    long id = 0;
    if (dict) {
      for (int shift = 0; ; shift += 7) {
        if (pos >= length) {
          throw new FormatException("truncated envelope: dictionary id cut short");
        }
        int x = b[offset + pos++] & 0xFF;
        if (shift == 28 && (x & 0xF8) != 0) {
          throw new FormatException("dictionary id out of range");
        }
        id |= (long) (x & 0x7F) << shift;
        if ((x & 0x80) == 0) {
          if (x == 0 && shift > 0) {
            throw new FormatException("dictionary id is not minimally encoded");
          }
          break;
        }
      }
      if (id == 0) {
        throw new FormatException("dictionary id 0 is reserved");
      }
    }
    int minBody = (flags & FLAG_ENCRYPTED) != 0 ? 1 : CRC_LENGTH + 1;
    if (length - pos < minBody) {
      throw new FormatException(
          "truncated envelope: " + (length - pos) + " body bytes after a " + pos + "-byte header");
    }
    return new Header(flags, (int) id, pos);
  }

  /** A structurally invalid envelope; the caller turns it into an integrity error with context. */
  public static final class FormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception. */
    public FormatException(String message) {
      super(message, null, false, false);
    }
  }
}
