package dev.stowage.testkit;

import dev.stowage.memory.MemoryDriver;
import dev.stowage.overflow.MemoryBlobStore;

/** The in-memory reference driver passes the whole conformance kit at full scale. */
class MemoryConformanceTest extends ConformanceKit {
  @Override
  protected DriverFixture createFixture() {
    return DriverFixture.of(MemoryDriver.create(), new MemoryBlobStore(), Scale.full(), null);
  }
}
