package dev.stowage.codec.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDictCompress;
import dev.stowage.internal.ValueWire;
import dev.stowage.item.AttributeValue;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A value in two parts (serialisation header, then the value's own bytes) is streamed into the very
 * frame the one-shot call makes of the joined serialisation: same bytes, content size recorded,
 * with and without a dictionary. That keeps compressed envelopes deterministic (golden vectors
 * re-encode byte for byte) whichever path wrote them.
 */
class ZstdCodecTest {
  private static final int LEVEL = 3;
  private static final byte[] DICTIONARY = text(4_000, 7);

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 127, 128, 5_000, 131_071, 131_072, 131_073, 1_000_000})
  void streamedFramesEqualOneShotFrames(int size) {
    ZstdCodec codec = new ZstdCodec(LEVEL, Map.of(5, DICTIONARY));
    for (AttributeValue v :
        new AttributeValue[] {
          AttributeValue.of(text(size, size)),
          AttributeValue.of(new String(text(size, size + 1), StandardCharsets.UTF_8))
        }) {
      Serial.Split split = Serial.split(v);
      assertThat(split.headLength()).isPositive();
      byte[] serial = ValueWire.encode(v);

      byte[] frame = compress(codec, split, 0);
      assertThat(frame).isEqualTo(oneShot(serial, null));
      assertThat(Zstd.getFrameContentSize(frame)).isEqualTo(serial.length);
      assertThat(codec.decompress(frame, 0, frame.length, 0)).isEqualTo(serial);

      byte[] withDictionary = compress(codec, split, 5);
      assertThat(withDictionary).isEqualTo(oneShot(serial, DICTIONARY));
      assertThat(codec.decompress(withDictionary, 0, withDictionary.length, 5)).isEqualTo(serial);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {3, 100, 70_000})
  void contextsStayUsableAcrossPathsAndSizes(int size) {
    // Pooled contexts alternate between one-shot and streamed frames of different sizes: a pledged
    // size must never leak into the next frame.
    ZstdCodec codec = new ZstdCodec(LEVEL, Map.of());
    for (int round = 0; round < 20; round++) {
      int n = size + round * 37;
      AttributeValue streamed = AttributeValue.of(text(n, round));
      AttributeValue whole = AttributeValue.list(AttributeValue.of(text(n / 2, round)));
      for (AttributeValue v : new AttributeValue[] {streamed, whole}) {
        byte[] serial = ValueWire.encode(v);
        byte[] frame = compress(codec, Serial.split(v), 0);
        assertThat(codec.decompress(frame, 0, frame.length, 0)).isEqualTo(serial);
      }
    }
  }

  private static byte[] compress(ZstdCodec codec, Serial.Split split, int dictionary) {
    byte[] out = new byte[ZstdCodec.bound(split.size()) + 3];
    int n = codec.compress(split, out, 3, dictionary);
    return Arrays.copyOfRange(out, 3, 3 + n);
  }

  private static byte[] oneShot(byte[] serial, byte[] dictionary) {
    try (ZstdCompressCtx ctx = new ZstdCompressCtx().setLevel(LEVEL)) {
      if (dictionary != null) {
        ctx.setChecksum(true).loadDict(new ZstdDictCompress(dictionary, LEVEL));
      }
      return ctx.compress(serial);
    }
  }

  /** Compressible ASCII text of {@code n} bytes. */
  private static byte[] text(int n, long seed) {
    String[] words = {"order", "shipped", "customer", "{\"id\":", "\"total\":", "12.50", "gift"};
    SplittableRandom r = new SplittableRandom(seed);
    byte[] out = new byte[n];
    int pos = 0;
    while (pos < n) {
      byte[] w = (words[r.nextInt(words.length)] + " ").getBytes(StandardCharsets.US_ASCII);
      int k = Math.min(w.length, n - pos);
      System.arraycopy(w, 0, out, pos, k);
      pos += k;
    }
    return out;
  }
}
