package dev.stowage.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.test.Emulators;
import org.junit.jupiter.api.Test;

class EmulatorSmokeTest {
  @Test
  void bothEmulatorsAnswer() {
    Emulators e = Emulators.shared();
    assertThat(e.dynamoDb().client().listTables().tableNames()).isNotNull();
    String bucket = e.s3().newBucket();
    assertThat(e.s3().client().listBuckets().buckets()).anyMatch(b -> b.name().equals(bucket));
  }
}
