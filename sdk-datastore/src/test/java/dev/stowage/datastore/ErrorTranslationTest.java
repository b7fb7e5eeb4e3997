package dev.stowage.datastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.DatastoreException;
import dev.stowage.ConditionFailedException;
import dev.stowage.ConflictException;
import dev.stowage.InvalidRequestException;
import dev.stowage.ItemTooLargeException;
import dev.stowage.NotFoundException;
import dev.stowage.StowageException;
import dev.stowage.ThrottledException;
import dev.stowage.UnavailableException;
import dev.stowage.datastore.internal.Errors;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Native errors become Stowage exceptions, keeping the cause. */
class ErrorTranslationTest extends DriverTestBase {

  private static StowageException translate(int code, String reason, String message) {
    DatastoreException e = new DatastoreException(code, message, reason);
    StowageException s = Errors.translate("op", e);
    assertThat(s.getCause()).isSameAs(e);
    return s;
  }

  @Test
  void statusCodesMapToStowageTypes() {
    assertThat(translate(409, "ABORTED", "too much contention"))
        .isInstanceOf(ConflictException.class);
    assertThat(translate(429, "RESOURCE_EXHAUSTED", "quota"))
        .isInstanceOf(ThrottledException.class);
    assertThat(translate(503, "UNAVAILABLE", "down")).isInstanceOf(UnavailableException.class);
    assertThat(translate(504, "DEADLINE_EXCEEDED", "slow"))
        .isInstanceOf(UnavailableException.class);
    assertThat(translate(400, "INVALID_ARGUMENT", "entity is too big"))
        .isInstanceOf(ItemTooLargeException.class);
    assertThat(
            translate(
                400, "INVALID_ARGUMENT", "The value of property \"x\" is longer than 1500 bytes."))
        .isInstanceOf(ItemTooLargeException.class);
    assertThat(translate(400, "INVALID_ARGUMENT", "bad name"))
        .isInstanceOf(InvalidRequestException.class);
    assertThat(translate(400, "FAILED_PRECONDITION", "no matching index found"))
        .isInstanceOf(InvalidRequestException.class);
    assertThat(translate(404, "NOT_FOUND", "no database")).isInstanceOf(NotFoundException.class);
  }

  @Test
  void anUnreachableServiceIsUnavailable() throws Exception {
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      port = s.getLocalPort();
    }
    try (DatastoreDriver nowhere =
        DatastoreDriver.builder().projectId("test").emulatorHost("localhost:" + port).build()) {
      TableLayout t = DriverTestBase.table("", AttributeType.STRING);
      assertThatThrownBy(() -> nowhere.get(t, dev.stowage.item.Key.of("p", "s"), true))
          .isInstanceOf(UnavailableException.class)
          .hasCauseInstanceOf(DatastoreException.class);
    }
  }

  @Test
  void racingConditionalWritesLetExactlyOneWin() throws Exception {
    TableLayout t = table("", AttributeType.STRING);
    Item v0 = StoredItems.of(Map.of("pk", AttributeValue.of("race"), "sk", AttributeValue.of("1")));
    String token = driver.put(t, v0, Expectation.ANY, false).token();
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      List<Future<String>> results = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        Item v =
            StoredItems.of(
                Map.of(
                    "pk",
                    AttributeValue.of("race"),
                    "sk",
                    AttributeValue.of("1"),
                    "n",
                    AttributeValue.of(i)));
        results.add(
            pool.submit(
                () -> {
                  try {
                    driver.put(t, v, Expectation.token(token), false);
                    return "won";
                  } catch (ConditionFailedException | ConflictException e) {
                    return e.getClass().getSimpleName();
                  }
                }));
      }
      int won = 0;
      for (Future<String> f : results) {
        if (f.get().equals("won")) {
          won++;
        }
      }
      assertThat(won).isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
  }
}
