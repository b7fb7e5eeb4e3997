package dev.stowage.cli.internal.cmd;

import dev.stowage.cli.internal.CliException;
import dev.stowage.cost.PriceTable;
import dev.stowage.usage.UsageSnapshot;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The files {@code top}, {@code cost} and {@code capacity} read, with the same usage error for a
 * missing one: the bare exception message would be only the path.
 */
final class UsageFiles {
  private UsageFiles() {}

  /** The usage snapshot an application's store writes. */
  static UsageSnapshot snapshot(Path file) {
    try {
      return UsageSnapshot.readFrom(file);
    } catch (NoSuchFileException e) {
      throw new CliException(
          "no usage snapshot at "
              + file
              + ": build the application's store with UsageTracking.builder().snapshotFile(...)");
    } catch (IOException e) {
      throw new CliException("cannot read usage snapshot " + file + ": " + e.getMessage());
    }
  }

  /** The shipped price table, or it with the keys of {@code --prices} overridden. */
  static PriceTable prices(Path file) {
    if (file == null) {
      return PriceTable.defaults();
    }
    try {
      return PriceTable.load(file);
    } catch (NoSuchFileException e) {
      throw new CliException("no such file: " + file + " (--prices)");
    } catch (IOException e) {
      throw new CliException("cannot read price file " + file + ": " + e.getMessage());
    }
  }
}
