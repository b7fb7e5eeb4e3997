package dev.stowage.azure;

import com.azure.core.http.policy.FixedDelayOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.data.tables.TableServiceClientBuilder;
import dev.stowage.test.Emulators;
import java.time.Duration;

/** Table service clients on the shared Azurite for the driver's tests. */
final class AzuriteClients {
  private AzuriteClients() {}

  /**
   * A builder for a client on the shared Azurite whose SDK retries come at once (1 ms apart), so
   * that tests injecting failures on the wire do not wait out the SDK's back-off.
   */
  static TableServiceClientBuilder fastRetrying() {
    return new TableServiceClientBuilder()
        .connectionString(Emulators.shared().azurite().connectionString())
        .retryOptions(new RetryOptions(new FixedDelayOptions(0, Duration.ofMillis(1))));
  }
}
