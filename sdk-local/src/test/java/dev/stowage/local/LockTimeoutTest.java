package dev.stowage.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.ConflictException;
import dev.stowage.KeySchema;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A writer that cannot get the file's write lock within the busy timeout (another process holds it)
 * fails with a retryable {@link ConflictException} and writes nothing; reads go on meanwhile.
 */
class LockTimeoutTest {
  @Test
  void aWriteLockHeldPastTheBusyTimeoutIsARetryableConflict() throws Exception {
    Path file = TempStores.directory().resolve("locked.db");
    TableLayout layout =
        new TableLayout(
            new TableRef("", "docs"), KeySchema.of("id", AttributeType.STRING), List.of());
    Item first = Item.builder().put("id", "a").put("n", 1).build();
    try (LocalDriver d = LocalDriver.builder(file).busyTimeout(Duration.ofMillis(300)).build()) {
      d.ensureTable(layout);
      d.put(layout, first, Expectation.ANY, false);
      try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + file)) {
        other.createStatement().execute("BEGIN IMMEDIATE"); // another writer holds the lock
        long start = System.nanoTime();
        assertThatThrownBy(
                () ->
                    d.put(layout, Item.builder().put("id", "b").build(), Expectation.ABSENT, false))
            .isInstanceOf(ConflictException.class)
            .satisfies(e -> assertThat(((ConflictException) e).retryable()).isTrue())
            .hasMessageContaining("busy timeout");
        assertThat(Duration.ofNanos(System.nanoTime() - start))
            .isGreaterThan(Duration.ofMillis(250));
        // Readers are not blocked by the writer (WAL).
        assertThat(d.get(layout, Key.of("a"), true)).isPresent();
        other.createStatement().execute("ROLLBACK");
      }
      assertThat(d.get(layout, Key.of("b"), true)).isEmpty();
      // With the lock free again, the same write goes through.
      d.put(layout, Item.builder().put("id", "b").build(), Expectation.ABSENT, false);
      assertThat(d.get(layout, Key.of("b"), true)).isPresent();
    }
  }
}
