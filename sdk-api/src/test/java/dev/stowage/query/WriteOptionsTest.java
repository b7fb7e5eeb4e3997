package dev.stowage.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Write options refuse request ids that would not do what the caller asked. */
class WriteOptionsTest {
  @Test
  void anIdempotentWriteNeedsAnId() {
    assertThatThrownBy(() -> WriteOptions.idempotent(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("use WriteOptions.NONE for a write that is not idempotent");
    assertThat(WriteOptions.idempotent("req-1").requestId()).isEqualTo("req-1");
  }

  @Test
  void requestIdsArePrintableAsciiWithoutSpaces() {
    for (String bad : new String[] {"", "a b", "é", "x".repeat(129)}) {
      assertThatThrownBy(() -> WriteOptions.idempotent(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("request id must be 1 to 128 printable ASCII characters without spaces");
    }
    assertThat(WriteOptions.idempotent("x".repeat(128)).requestId()).hasSize(128);
  }
}
