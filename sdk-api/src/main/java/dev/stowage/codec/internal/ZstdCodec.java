package dev.stowage.codec.internal;

import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdDictCompress;
import com.github.luben.zstd.ZstdDictDecompress;
import dev.stowage.codec.internal.Envelope.FormatException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * zstd compression through zstd-jni with pooled native contexts, plus the configured dictionaries
 * by id. Thread-safe.
 *
 * <p>Frames always record their content size (so decompression allocates exactly once). Frames made
 * with a dictionary also carry zstd's content checksum, so a dictionary id that was reused for
 * different dictionary content is detected instead of producing wrong data.
 */
public final class ZstdCodec {
  /** Largest value this codec will inflate: the largest Java array. */
  static final long MAX_DECODED = Integer.MAX_VALUE - 16;

  /** Bound on inflated size per compressed byte, above zstd's real maximum. */
  static final long MAX_RATIO = 65_536;

  private final Pool<ZstdCompressCtx> compressors;
  private final Pool<ZstdDecompressCtx> decompressors;
  private final Map<Integer, Dict> dictionaries;

  /**
   * Creates the codec.
   *
   * @param level the zstd level
   * @param dictionaries dictionary content by id (ids positive)
   */
  public ZstdCodec(int level, Map<Integer, byte[]> dictionaries) {
    int capacity = Pool.defaultCapacity();
    this.compressors =
        new Pool<>(capacity, () -> new ZstdCompressCtx().setLevel(level), ZstdCompressCtx::close);
    this.decompressors = new Pool<>(capacity, ZstdDecompressCtx::new, ZstdDecompressCtx::close);
    Map<Integer, Dict> dicts = new HashMap<>();
    dictionaries.forEach((id, content) -> dicts.put(id, new Dict(content, level, capacity)));
    this.dictionaries = Map.copyOf(dicts);
  }

  /** Largest possible frame for {@code n} input bytes. */
  public static int bound(int n) {
    long b = Zstd.compressBound(n);
    if (b > Integer.MAX_VALUE - 64) {
      throw new IllegalArgumentException("value too large to compress: " + n + " bytes");
    }
    return (int) b;
  }

  /**
   * Compresses the serialisation {@code value} into {@code dst} at {@code offset}, which must have
   * room for {@link #bound} of its size, as one frame recording its content size; returns the frame
   * length. A value in two parts is streamed into the frame part by part rather than joined first.
   *
   * @param dictionaryId 0 for none, otherwise a configured dictionary id
   */
  int compress(Serial.Split value, byte[] dst, int offset, int dictionaryId) {
    Pool<ZstdCompressCtx> pool = dictionaryId == 0 ? compressors : dict(dictionaryId).compressors;
    ZstdCompressCtx ctx = pool.take();
    try {
      int n;
      if (value.headLength() == 0) {
        n =
            ctx.compressByteArray(
                dst, offset, dst.length - offset, value.body(), value.offset(), value.length());
      } else {
        // The pledged size puts the content size in the frame header, as the one-shot call does.
        ctx.setPledgedSrcSize(value.size());
        ByteBuffer out = ByteBuffer.wrap(dst, offset, dst.length - offset);
        ByteBuffer head = ByteBuffer.wrap(value.head(), 0, value.headLength());
        ByteBuffer body = ByteBuffer.wrap(value.body(), value.offset(), value.length());
        ctx.compressByteBufferStream(out, head, EndDirective.CONTINUE);
        boolean done = ctx.compressByteBufferStream(out, body, EndDirective.END);
        if (head.hasRemaining() || body.hasRemaining() || !done) {
          // Cannot happen with a bound-sized destination; the context, mid-frame, is discarded.
          throw new IllegalStateException("zstd did not finish the frame in its bound");
        }
        n = out.position() - offset;
      }
      pool.give(ctx);
      return n;
    } catch (RuntimeException e) {
      pool.discard(ctx);
      throw new IllegalStateException("zstd compression failed: " + e.getMessage(), e);
    }
  }

  /**
   * Inflates one zstd frame.
   *
   * @throws FormatException if the frame is invalid, its dictionary is not configured, or its
   *     checksum or size does not match
   */
  public byte[] decompress(byte[] src, int offset, int length, int dictionaryId) {
    Pool<ZstdDecompressCtx> pool;
    if (dictionaryId == 0) {
      pool = decompressors;
    } else {
      Dict d = dictionaries.get(dictionaryId);
      if (d == null) {
        throw new FormatException(
            "zstd dictionary "
                + dictionaryId
                + " is not configured; register it with Codecs.Builder.dictionary or"
                + " Codecs.Builder.readDictionary to read this value");
      }
      pool = d.decompressors;
    }
    long size;
    try {
      size = Zstd.getFrameContentSize(src, offset, length);
    } catch (RuntimeException e) {
      throw new FormatException("invalid zstd frame: " + e.getMessage());
    }
    if (size < 0 || size > MAX_DECODED) {
      throw new FormatException("invalid zstd frame: no usable content size (" + size + ")");
    }
    if (size > (long) length * MAX_RATIO) {
      // zstd cannot expand data this much (an RLE block of 128 KiB takes 4 bytes): a forged
      // header, rejected before it makes us allocate.
      throw new FormatException(
          "invalid zstd frame: " + length + " bytes cannot inflate to " + size);
    }
    byte[] out = new byte[(int) size];
    ZstdDecompressCtx ctx = pool.take();
    int n;
    try {
      n = ctx.decompressByteArray(out, 0, out.length, src, offset, length);
    } catch (RuntimeException e) {
      pool.discard(ctx);
      throw new FormatException("invalid zstd frame: " + e.getMessage());
    }
    pool.give(ctx);
    if (n != out.length) {
      throw new FormatException("zstd frame inflated to " + n + " bytes, header said " + size);
    }
    return out;
  }

  private Dict dict(int id) {
    Dict d = dictionaries.get(id);
    if (d == null) {
      throw new IllegalArgumentException("dictionary " + id + " is not configured");
    }
    return d;
  }

  /** One dictionary, digested once for each direction, with contexts bound to it. */
  private static final class Dict {
    final Pool<ZstdCompressCtx> compressors;
    final Pool<ZstdDecompressCtx> decompressors;

    Dict(byte[] content, int level, int capacity) {
      ZstdDictCompress cdict = new ZstdDictCompress(content, level);
      ZstdDictDecompress ddict = new ZstdDictDecompress(content);
      this.compressors =
          new Pool<>(
              capacity,
              () -> new ZstdCompressCtx().setLevel(level).setChecksum(true).loadDict(cdict),
              ZstdCompressCtx::close);
      this.decompressors =
          new Pool<>(
              capacity, () -> new ZstdDecompressCtx().loadDict(ddict), ZstdDecompressCtx::close);
    }
  }
}
