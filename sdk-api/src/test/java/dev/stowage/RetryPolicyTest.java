package dev.stowage;

import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.spi.StorageDriver;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Retries are bounded by the policy: hints are capped, and the final error says what was tried. */
@Timeout(30)
class RetryPolicyTest {
  private static final RetryPolicy FAST =
      new RetryPolicy(4, Duration.ofMillis(1), Duration.ofMillis(20));

  @Test
  void aServerHintLongerThanMaxDelayIsCappedAtMaxDelay() {
    for (int retry = 1; retry < 40; retry++) {
      assertThat(RetryPolicy.DEFAULT.delayBefore(retry, Duration.ofMinutes(10)))
          .isEqualTo(RetryPolicy.DEFAULT.maxDelay());
    }
    assertThat(FAST.delayBefore(1, Duration.ofMillis(15))).isEqualTo(Duration.ofMillis(15));
    assertThat(FAST.delayBefore(1, null)).isBetween(Duration.ZERO, Duration.ofMillis(1));
  }

  @Test
  void aTenMinuteHintDoesNotBlockTheCaller() {
    AtomicInteger calls = new AtomicInteger();
    long start = System.nanoTime();
    String result =
        FAST.call(
            () -> {
              if (calls.incrementAndGet() < 3) {
                throw new ThrottledException("slow down", Duration.ofMinutes(10), null);
              }
              return "done";
            });
    assertThat(result).isEqualTo("done");
    assertThat(calls).hasValue(3);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void theFinalThrottledErrorSaysHowManyAttemptsOverHowLongAndKeepsCauseAndHint() {
    IllegalStateException nativeCause = new IllegalStateException("ProvisionedThroughputExceeded");
    AtomicInteger calls = new AtomicInteger();
    ThrottledException e =
        catchThrowableOfType(
            ThrottledException.class,
            () ->
                FAST.call(
                    () -> {
                      calls.incrementAndGet();
                      throw new ThrottledException(
                          "table busy", Duration.ofMinutes(10), nativeCause);
                    }));
    assertThat(calls).hasValue(4);
    assertThat(e.getMessage())
        .matches("table busy \\(gave up after 4 attempts over \\d+\\.\\d s\\)");
    assertThat(e.getCause()).isSameAs(nativeCause);
    assertThat(e.retryAfter()).contains(Duration.ofMinutes(10));
    assertThat(e.retryable()).isTrue();
  }

  @Test
  void theFinalUnavailableAndConflictErrorsSayTheAttemptsToo() {
    RuntimeException cause = new RuntimeException("connection reset");
    UnavailableException u =
        catchThrowableOfType(
            UnavailableException.class,
            () ->
                FAST.run(
                    () -> {
                      throw new UnavailableException("backend unreachable", cause);
                    }));
    assertThat(u.getMessage()).startsWith("backend unreachable (gave up after 4 attempts over ");
    assertThat(u.getCause()).isSameAs(cause);
    ConflictException c =
        catchThrowableOfType(
            ConflictException.class,
            () ->
                RetryPolicy.NONE.run(
                    () -> {
                      throw new ConflictException("transaction aborted");
                    }));
    assertThat(c.getMessage()).startsWith("transaction aborted (gave up after 1 attempt over ");
  }

  @Test
  void nonRetryableErrorsAreRethrownUnchangedAtOnce() {
    InvalidRequestException bad = new InvalidRequestException("bad request");
    AtomicInteger calls = new AtomicInteger();
    InvalidRequestException e =
        catchThrowableOfType(
            InvalidRequestException.class,
            () ->
                FAST.run(
                    () -> {
                      calls.incrementAndGet();
                      throw bad;
                    }));
    assertThat(e).isSameAs(bad);
    assertThat(calls).hasValue(1);
  }

  @Test
  void aStoreGivesUpAfterItsPolicyWithAHelpfulMessage() {
    StorageDriver memory = MemoryDriver.create();
    AtomicInteger gets = new AtomicInteger();
    StorageDriver throttled =
        (StorageDriver)
            Proxy.newProxyInstance(
                StorageDriver.class.getClassLoader(),
                new Class<?>[] {StorageDriver.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("get")) {
                    gets.incrementAndGet();
                    throw new ThrottledException(
                        "read capacity exceeded", Duration.ofMinutes(10), null);
                  }
                  try {
                    return method.invoke(memory, args);
                  } catch (InvocationTargetException ite) {
                    throw ite.getCause();
                  }
                });
    Stowage store = Stowage.builder(throttled).retryPolicy(FAST).build();
    Table t = store.ensureTable(TableSpec.builder("throttled", KeySchema.of("id", STRING)).build());
    long start = System.nanoTime();
    ThrottledException e = catchThrowableOfType(ThrottledException.class, () -> t.get(Key.of("x")));
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    assertThat(gets).hasValue(4);
    assertThat(e.getMessage()).contains("read capacity exceeded").contains("after 4 attempts over");
    assertThat(e.retryAfter()).contains(Duration.ofMinutes(10));
    assertThat(store.metrics().throttled()).isEqualTo(4);
  }
}
