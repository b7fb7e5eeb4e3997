package dev.stowage.testkit;

import dev.stowage.memory.MemoryDriver;

/** The in-memory reference driver passes the whole conformance kit at full scale. */
class MemoryConformanceTest extends ConformanceKit {
  @Override
  protected DriverFixture createFixture() {
    return DriverFixture.of(MemoryDriver.create(), new InMemoryBlobStore(), Scale.full(), null);
  }
}
