package dev.stowage.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.AttributePolicy;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Key;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** One Codecs instance shared by many threads: pooled zstd contexts never mix up values. */
class ConcurrencyTest {
  @Test
  void sharedInstanceIsThreadSafe() throws Exception {
    Codecs codecs =
        Codecs.builder()
            .keys(KeyProvider.ofKeyset(TestKeys.fresh()))
            .dictionary(
                "doc", ZstdDictionary.of(1, Values.json(2000, 9).getBytes(StandardCharsets.UTF_8)))
            .build();
    AttributePolicy[] policies = {
      AttributePolicy.COMPRESSED,
      AttributePolicy.ENCRYPTED,
      AttributePolicy.COMPRESSED_AND_ENCRYPTED
    };
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Integer>> results = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int thread = t;
        results.add(
            pool.submit(
                () -> {
                  int checked = 0;
                  for (int i = 0; i < 100; i++) {
                    Key key = Key.of("t" + thread, i);
                    String attribute = i % 2 == 0 ? "doc" : "body";
                    AttributePolicy policy = policies[i % policies.length];
                    AttributeValue v =
                        AttributeValue.of(Values.json(200 + 13 * i, thread * 1000L + i));
                    AttributeValue stored = codecs.encode("t", key, attribute, policy, v);
                    assertThat(codecs.decode("t", key, attribute, policy, stored)).isEqualTo(v);
                    checked++;
                  }
                  return checked;
                }));
      }
      for (Future<Integer> f : results) {
        assertThat(f.get(60, TimeUnit.SECONDS)).isEqualTo(100);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
