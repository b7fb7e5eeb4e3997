package dev.stowage.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EmulatorSmokeTest {
  @Test
  void bothEmulatorsAnswer() {
    Emulators e = Emulators.get();
    assertThat(e.dynamo().listTables().tableNames()).isNotNull();
    String bucket = e.newBucket();
    assertThat(e.s3().listBuckets().buckets()).anyMatch(b -> b.name().equals(bucket));
  }
}
