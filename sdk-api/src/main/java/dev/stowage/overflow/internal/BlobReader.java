package dev.stowage.overflow.internal;

import dev.stowage.internal.ValueWire;
import dev.stowage.item.AttributeValue;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;

/**
 * Streams an overflow blob ({@link BlobBody}'s layout) into attribute values through the canonical
 * value decoder ({@link ValueWire.Decoder}), reading each value straight into its final array,
 * counting bytes and hashing as it goes. The caller must check {@link #finish} (size and digest)
 * before using anything returned. Not thread-safe.
 */
final class BlobReader {
  /** A blob that does not follow the format; the message says where. */
  static final class FormatException extends Exception {
    private static final long serialVersionUID = 1L;

    FormatException(String message) {
      super(message);
    }
  }

  private final StreamDecoder in;

  BlobReader(InputStream in, long expectedSize) {
    this.in = new StreamDecoder(new BufferedInputStream(in, 16384), expectedSize);
  }

  /** Reads the header and the map of moved attributes. */
  Map<String, AttributeValue> readAttributes() throws IOException, FormatException {
    try {
      byte[] magic = in.take(BlobBody.MAGIC.length);
      if (!java.util.Arrays.equals(magic, BlobBody.MAGIC)) {
        throw new FormatException("not an overflow blob (bad magic)");
      }
      int version = in.u8();
      if (version != BlobBody.VERSION) {
        throw new FormatException("unknown overflow blob format version " + version);
      }
      return in.map(0);
    } catch (ValueWire.MalformedException e) {
      throw new FormatException(e.getMessage());
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /**
   * Checks that the blob ended exactly at the expected size and returns its SHA-256.
   *
   * @throws FormatException on trailing bytes or a size mismatch
   */
  byte[] finish() throws IOException, FormatException {
    if (in.in.read() != -1) {
      throw new FormatException("trailing bytes after offset " + in.pos);
    }
    if (in.pos != in.expectedSize) {
      throw new FormatException("blob has " + in.pos + " bytes, pointer says " + in.expectedSize);
    }
    return in.digest.digest();
  }

  /** The decoder's source: the blob stream, hashed and counted as it is read. */
  private static final class StreamDecoder extends ValueWire.Decoder {
    private final InputStream in;
    private final MessageDigest digest = BlobBody.sha256();
    private final long expectedSize;
    private long pos;

    StreamDecoder(InputStream in, long expectedSize) {
      this.in = in;
      this.expectedSize = expectedSize;
    }

    @Override
    public int u8() {
      int b;
      try {
        b = in.read();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      if (b < 0) {
        throw new ValueWire.MalformedException("truncated at offset " + pos);
      }
      digest.update((byte) b);
      pos++;
      return b;
    }

    @Override
    protected byte[] take(int n) {
      // Read straight into the value's final array (readNBytes(int) would buffer a second copy).
      byte[] b = new byte[n];
      int read;
      try {
        read = in.readNBytes(b, 0, n);
      } catch (EOFException e) {
        throw new ValueWire.MalformedException("truncated at offset " + pos);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      if (read != n) {
        throw new ValueWire.MalformedException("truncated at offset " + (pos + read));
      }
      digest.update(b);
      pos += n;
      return b;
    }

    /** Validated without decoding first, so a large string costs no temporary char buffer. */
    @Override
    public String string() {
      byte[] b = take(length());
      if (!Utf8.isValid(b)) {
        throw new ValueWire.MalformedException("invalid UTF-8 before offset " + pos);
      }
      return new String(b, StandardCharsets.UTF_8);
    }

    @Override
    protected long remaining() {
      return expectedSize - pos;
    }

    @Override
    protected long offset() {
      return pos;
    }
  }
}
