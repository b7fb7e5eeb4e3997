package dev.stowage.overflow.internal;

import dev.stowage.internal.ValueWire;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The bytes of one overflow blob, built without copying large values: binary payloads are
 * referenced in place, strings are encoded to UTF-8 once, and the small framing bytes are gathered
 * in chunks. The layout (see docs/FORMAT.md, "Overflow pointer") is the 4-byte magic {@code SOVF},
 * the format version byte, then the moved attributes as one value in Stowage's canonical value
 * encoding (the same bytes {@code dev.stowage.internal.ValueWire.encode} gives for a map value).
 *
 * <p>Immutable once built; {@link #openStream()} may be called more than once.
 */
public final class BlobBody {
  /** First bytes of every overflow blob: ASCII {@code SOVF}. */
  static final byte[] MAGIC = {'S', 'O', 'V', 'F'};

  /** The blob format version this code writes and reads. */
  static final int VERSION = 1;

  /** Values at least this large become their own segment instead of being copied. */
  private static final int INLINE_LIMIT = 1024;

  private static final int CHUNK = 8192;

  private final List<ByteBuffer> segments;
  private final long length;
  private final byte[] sha256;

  private BlobBody(List<ByteBuffer> segments) {
    this.segments = List.copyOf(segments);
    long n = 0;
    MessageDigest digest = sha256();
    for (ByteBuffer b : this.segments) {
      n += b.remaining();
      digest.update(b.duplicate());
    }
    this.length = n;
    this.sha256 = digest.digest();
  }

  /** Encodes the moved attributes (name → stored value), in the order of the given map. */
  public static BlobBody of(Map<String, AttributeValue> moved) {
    Builder b = new Builder();
    b.raw(MAGIC);
    b.u8(VERSION);
    b.map(moved);
    return new BlobBody(b.finish());
  }

  /** Total bytes. */
  public long length() {
    return length;
  }

  /** SHA-256 of all bytes. */
  public byte[] sha256Digest() {
    return sha256.clone();
  }

  /** A fresh stream over the bytes. */
  public InputStream openStream() {
    return new SegmentStream(segments);
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JVM lacks SHA-256", e);
    }
  }

  /**
   * Writes the canonical value encoding ({@link ValueWire.Encoder}) into segments. Not thread-safe.
   */
  private static final class Builder extends ValueWire.Encoder {
    private final List<ByteBuffer> out = new ArrayList<>();
    private byte[] chunk = new byte[CHUNK];
    private int pos;

    @Override
    public Builder u8(int b) {
      ensure(1);
      chunk[pos++] = (byte) b;
      return this;
    }

    @Override
    public Builder varint(long v) {
      ensure(10);
      while ((v & ~0x7FL) != 0) {
        chunk[pos++] = (byte) ((v & 0x7F) | 0x80);
        v >>>= 7;
      }
      chunk[pos++] = (byte) v;
      return this;
    }

    Builder raw(byte[] b) {
      ensure(b.length);
      System.arraycopy(b, 0, chunk, pos, b.length);
      pos += b.length;
      return this;
    }

    /** Length-prefixed bytes; large arrays are referenced, not copied. */
    Builder bytes(ByteBuffer b) {
      varint(b.remaining());
      if (b.remaining() >= INLINE_LIMIT) {
        flush();
        out.add(b);
      } else {
        ensure(b.remaining());
        int n = b.remaining();
        b.duplicate().get(chunk, pos, n);
        pos += n;
      }
      return this;
    }

    @Override
    public Builder string(String s) {
      return bytes(ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public Builder binary(Bytes b) {
      return bytes(b.asReadOnlyBuffer());
    }

    private void ensure(int n) {
      if (pos + n > chunk.length) {
        flush();
        if (n > chunk.length) {
          chunk = new byte[n];
        }
      }
    }

    private void flush() {
      if (pos > 0) {
        out.add(ByteBuffer.wrap(chunk, 0, pos).asReadOnlyBuffer());
        chunk = new byte[CHUNK];
        pos = 0;
      }
    }

    List<ByteBuffer> finish() {
      flush();
      return out;
    }
  }

  /** Reads a list of buffers in order without copying them. */
  private static final class SegmentStream extends InputStream {
    private final List<ByteBuffer> segments;
    private int index;
    private ByteBuffer current;

    SegmentStream(List<ByteBuffer> segments) {
      this.segments = segments;
    }

    private boolean advance() {
      while (current == null || !current.hasRemaining()) {
        if (index >= segments.size()) {
          return false;
        }
        current = segments.get(index++).duplicate();
      }
      return true;
    }

    @Override
    public int read() {
      return advance() ? current.get() & 0xFF : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (len == 0) {
        return 0;
      }
      if (!advance()) {
        return -1;
      }
      int n = Math.min(len, current.remaining());
      current.get(b, off, n);
      return n;
    }

    @Override
    public int available() {
      return current == null ? 0 : current.remaining();
    }
  }
}
