package dev.stowage.cli.internal;

import java.nio.file.Path;

/**
 * The command line's own directory, holding the local stores ({@code <name>.db} and their {@code
 * <name>.blobs} directories) and the cursor keyset: the system property {@code stowage.home}, else
 * {@code $STOWAGE_HOME}, else {@code ~/.stowage}.
 */
public final class StowageHome {
  /** The environment variable naming the home. */
  public static final String ENV = "STOWAGE_HOME";

  private StowageHome() {}

  /** The directory (it may not exist yet). */
  public static Path get() {
    String home = System.getProperty("stowage.home");
    if (home == null || home.isEmpty()) {
      home = System.getenv(ENV);
    }
    if (home == null || home.isEmpty()) {
      return Path.of(System.getProperty("user.home"), ".stowage");
    }
    return Path.of(home);
  }
}
