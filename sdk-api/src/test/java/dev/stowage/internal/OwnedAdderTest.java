package dev.stowage.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OwnedAdderTest {

  @Test
  void theOwnerAndOtherThreadsAllCount() throws Exception {
    OwnedAdder adder = new OwnedAdder();
    adder.add(5); // this thread owns it from now on
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      Thread thread =
          new Thread(
              () -> {
                for (int i = 0; i < 100_000; i++) {
                  adder.increment();
                }
              });
      threads.add(thread);
      thread.start();
    }
    for (int i = 0; i < 100_000; i++) {
      adder.add(2);
    }
    for (Thread thread : threads) {
      thread.join();
    }
    assertThat(adder.sum()).isEqualTo(5 + 200_000 + 400_000);
  }

  @Test
  void aThreadThatIsNotTheOwnerStillCountsAfterTheOwnerIsGone() throws Exception {
    OwnedAdder adder = new OwnedAdder();
    Thread owner = new Thread(() -> adder.add(3));
    owner.start();
    owner.join();
    adder.add(4);
    adder.increment();
    assertThat(adder.sum()).isEqualTo(8);
  }
}
