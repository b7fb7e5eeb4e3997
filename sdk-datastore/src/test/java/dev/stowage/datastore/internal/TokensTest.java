package dev.stowage.datastore.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The version tokens of a batch write, drawn at once: each like a single write's, all distinct. */
class TokensTest {
  @Test
  void aBatchsTokensAreDistinctAndShapedLikeSingleOnes() {
    String single = Entities.newToken();
    assertThat(single).hasSize(22).matches("[A-Za-z0-9_-]+");
    assertThat(Base64.getUrlDecoder().decode(single)).hasSize(16);

    String[] batch = Entities.newTokens(500);
    assertThat(batch).hasSize(500);
    Set<String> seen = new HashSet<>();
    for (String t : batch) {
      assertThat(t).hasSize(22).matches("[A-Za-z0-9_-]+");
      assertThat(Base64.getUrlDecoder().decode(t)).hasSize(16);
      assertThat(seen.add(t)).as("token %s drawn twice", t).isTrue();
    }
    // Another batch shares none of them: every token is its own draw.
    for (String t : Entities.newTokens(500)) {
      assertThat(seen).doesNotContain(t);
    }
    assertThat(Entities.newTokens(0)).isEmpty();
  }
}
