package dev.stowage.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.memory.MemoryLimits;
import dev.stowage.spi.Capability;
import dev.stowage.testkit.LimitPresets;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The builder: the memory driver's presets, capabilities, locations and the blob directory. */
class LocalDriverBuilderTest {
  private final Path dir = TempStores.directory();

  @Test
  void aPresetRefusesWhatItsBackendRefuses() {
    try (LocalDriver d =
        LocalDriver.builder(dir.resolve("azure.db"))
            .limits(MemoryLimits.azure())
            .capabilities(MemoryLimits.azureCapabilities())
            .build()) {
      LimitPresets.assertMatches(MemoryLimits.azure(), MemoryLimits.azureCapabilities(), d);
    }
    try (LocalDriver d =
        LocalDriver.builder(dir.resolve("datastore.db"))
            .limits(MemoryLimits.datastore())
            .capabilities(MemoryLimits.datastoreCapabilities())
            .build()) {
      LimitPresets.assertMatches(MemoryLimits.datastore(), MemoryLimits.datastoreCapabilities(), d);
    }
  }

  @Test
  void nativeUpdatesAreLeftOutAndEverythingElseIsSupportedByDefault() {
    try (LocalDriver d = LocalDriver.open(dir.resolve("default.db"))) {
      assertThat(d.capabilities()).isEqualTo(LocalDriver.SUPPORTED);
      LimitPresets.assertMatches(MemoryLimits.dynamoDb(), LocalDriver.SUPPORTED, d);
    }
    Set<Capability> dynamo = EnumSet.copyOf(MemoryLimits.dynamoDbCapabilities());
    try (LocalDriver d =
        LocalDriver.builder(dir.resolve("dynamo.db")).capabilities(dynamo).build()) {
      dynamo.remove(Capability.NATIVE_UPDATES);
      assertThat(d.capabilities()).isEqualTo(dynamo);
    }
    try (LocalDriver d =
        LocalDriver.builder(dir.resolve("plain.db")).without(Capability.TRANSACTIONS).build()) {
      assertThat(d.capabilities())
          .doesNotContain(Capability.TRANSACTIONS, Capability.CROSS_PARTITION_TRANSACTIONS);
    }
  }

  @Test
  void driversOnOneFileShareALocationAndTheBlobsGoBesideIt() {
    Path file = dir.resolve("a/../shared.db");
    try (LocalDriver one = LocalDriver.open(file);
        LocalDriver two = LocalDriver.open(dir.resolve("shared.db"))) {
      assertThat(one.location())
          .isEqualTo(two.location())
          .isEqualTo(dir.resolve("shared.db").toAbsolutePath().toString());
      assertThat(one.name()).isEqualTo("local");
    }
    assertThat(LocalDriver.blobDirectory(dir.resolve("orders.db")))
        .isEqualTo(dir.resolve("orders.blobs").toAbsolutePath());
    assertThat(LocalDriver.blobDirectory(dir.resolve("orders")))
        .isEqualTo(dir.resolve("orders.blobs").toAbsolutePath());
  }

  @Test
  void aClosedDriverRefusesWork() {
    LocalDriver d = LocalDriver.open(dir.resolve("closed.db"));
    d.close();
    d.close(); // idempotent
    assertThatThrownBy(() -> d.dropTable(new dev.stowage.spi.TableRef("", "gone")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }
}
