package dev.stowage.datastore;

import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.TableSpec;
import dev.stowage.UnavailableException;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.test.Emulators;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A driver that owns its client closes it without the Google client's "Failed to close channels"
 * warning (its HTTP transport has no channels), and an unreachable Datastore is an {@link
 * UnavailableException}, not a native exception.
 */
class DriverCloseTest {
  private final GoogleLog log = new GoogleLog();

  @BeforeEach
  void listen() throws ReflectiveOperationException {
    log.start();
  }

  @AfterEach
  void stopListening() throws ReflectiveOperationException {
    log.stop();
  }

  @Test
  void closingAnOwnedClientLogsNoWarning() throws ReflectiveOperationException {
    DatastoreDriver driver =
        DatastoreDriver.builder()
            .projectId("close-test")
            .emulatorHost(Emulators.shared().datastore().hostPort())
            .build();
    try (Stowage store = Stowage.builder(driver).build()) {
      var t = store.ensureTable(TableSpec.builder("closing", KeySchema.of("id", STRING)).build());
      t.put(Item.builder().put("id", "a").build());
      assertThat(t.get(Key.of("a"))).isPresent();
    }
    assertThat(log.text()).doesNotContain("Failed to close channels").isEmpty();
  }

  @Test
  void anUnreachableDatastoreIsUnavailable() throws ReflectiveOperationException {
    DatastoreDriver driver =
        DatastoreDriver.builder().projectId("close-test").emulatorHost("localhost:1").build();
    try (Stowage store =
        Stowage.builder(driver).retryPolicy(dev.stowage.RetryPolicy.NONE).build()) {
      assertThatThrownBy(
              () ->
                  store.ensureTable(
                      TableSpec.builder("closing", KeySchema.of("id", STRING)).build()))
          .isInstanceOf(UnavailableException.class);
    }
    assertThat(log.text()).isEmpty();
  }

  /**
   * What the Google client logs at WARNING or above through java.util.logging. Reflective: the
   * tests run inside the driver's module, which does not read java.logging.
   */
  static final class GoogleLog {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private Object logger;
    private Object handler;
    private Class<?> handlerClass;

    void start() throws ReflectiveOperationException {
      Class<?> loggerClass = Class.forName("java.util.logging.Logger");
      Class<?> formatter = Class.forName("java.util.logging.Formatter");
      Class<?> level = Class.forName("java.util.logging.Level");
      handlerClass = Class.forName("java.util.logging.Handler");
      logger = loggerClass.getMethod("getLogger", String.class).invoke(null, "com.google.cloud");
      handler =
          Class.forName("java.util.logging.StreamHandler")
              .getConstructor(OutputStream.class, formatter)
              .newInstance(
                  out,
                  Class.forName("java.util.logging.SimpleFormatter")
                      .getConstructor()
                      .newInstance());
      handlerClass
          .getMethod("setLevel", level)
          .invoke(handler, level.getField("WARNING").get(null));
      loggerClass.getMethod("addHandler", handlerClass).invoke(logger, handler);
    }

    String text() throws ReflectiveOperationException {
      handlerClass.getMethod("flush").invoke(handler);
      return out.toString(StandardCharsets.UTF_8);
    }

    void stop() throws ReflectiveOperationException {
      logger.getClass().getMethod("removeHandler", handlerClass).invoke(logger, handler);
    }
  }
}
