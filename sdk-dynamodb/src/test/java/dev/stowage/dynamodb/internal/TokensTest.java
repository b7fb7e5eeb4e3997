package dev.stowage.dynamodb.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Tokens drawn for a batch are tokens as {@link Tokens#next()} makes them, all different. */
class TokensTest {
  @Test
  void aBatchOfTokensIsAsManyDistinctTokensOfTheSingleForm() {
    String[] batch = Tokens.next(25);
    assertThat(batch).hasSize(25);
    Set<String> seen = new HashSet<>(List.of(batch));
    seen.add(Tokens.next());
    assertThat(seen).as("no token repeats").hasSize(26);
    for (String t : seen) {
      assertThat(t).hasSize(Tokens.TOKEN_LENGTH).matches("[A-Za-z0-9_-]+");
      assertThat(Base64.getUrlDecoder().decode(t)).hasSize(16);
    }
    assertThat(Tokens.next(0)).isEmpty();
  }
}
