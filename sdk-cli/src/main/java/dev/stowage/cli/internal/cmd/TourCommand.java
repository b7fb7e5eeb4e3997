package dev.stowage.cli.internal.cmd;

import dev.stowage.Stowage;
import dev.stowage.cli.Main;
import dev.stowage.cli.internal.Tour;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** {@code stowage tour}. */
@Command(
    name = "tour",
    mixinStandardHelpOptions = true,
    description =
        "Walk through Stowage's features on an embedded in-memory store (nothing to install),"
            + " printing what each step did and what it cost.")
public final class TourCommand implements Callable<Integer> {
  @ParentCommand Main main;

  @Override
  public Integer call() {
    Tour tour = new Tour(main.out(), null, (driver, blobs) -> Stowage.builder(driver).build());
    try (Stowage s = tour.store()) {
      tour.run();
    }
    return 0;
  }
}
