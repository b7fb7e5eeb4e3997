package dev.stowage.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import dev.stowage.Stowage;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;

/** The extension on sample test classes, run through JUnit's engine test kit. */
class ExtensionTest {
  @WithEmulators(Backend.DYNAMODB)
  static class InjectsEmulators {
    @Test
    void emulatorParameters(Emulators emulators, DynamoDbLocal dynamo, S3Emulator s3) {
      assertThat(emulators).isSameAs(Emulators.shared());
      assertThat(dynamo).isSameAs(emulators.dynamoDb());
      assertThat(s3.endpoint().getPort()).isPositive();
    }
  }

  @WithEmulators(Backend.DYNAMODB)
  static class AsksForAStoreWithoutTheDriver {
    @Test
    void store(Stowage store) {}
  }

  @WithEmulators({Backend.DYNAMODB, Backend.AZURE})
  static class AmbiguousStore {
    @Test
    void store(Stowage store) {}
  }

  @Test
  void resolvesEmulatorParameters() {
    EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(InjectsEmulators.class))
        .execute()
        .testEvents()
        .assertStatistics(s -> s.succeeded(1).failed(0));
  }

  @Test
  void aStoreWithoutItsDriverFailsSayingWhatToAdd() {
    EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(AsksForAStoreWithoutTheDriver.class))
        .execute()
        .testEvents()
        .assertThatEvents()
        .haveExactly(
            1,
            event(
                test("store"),
                finishedWithFailure(message(m -> m.contains("Add dev.stowage:sdk-dynamodb")))));
  }

  @Test
  void aStoreOnOneOfSeveralBackendsNeedsOn() {
    // Azurite starts for the class; only the parameter fails.
    EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(AmbiguousStore.class))
        .execute()
        .testEvents()
        .assertThatEvents()
        .haveExactly(
            1,
            event(test("store"), finishedWithFailure(message(m -> m.contains("@On(Backend.X)")))));
  }
}
