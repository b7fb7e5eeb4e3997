package dev.stowage.test.internal;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Finds the emulators' files on this machine: Google's emulator jars, Azurite, Node.js. */
public final class EmulatorFiles {
  private EmulatorFiles() {}

  /**
   * The jar of a Google Cloud SDK emulator, {@code platform/<dir>/<jar>}: from the system property
   * or environment variable given, else under {@code CLOUDSDK_ROOT_DIR}, the usual install
   * directories, or the SDK that the {@code gcloud} on the PATH belongs to.
   */
  public static Optional<Path> googleEmulatorJar(
      String property, String env, String dir, String jar) {
    Optional<Path> explicit = explicit(property, env);
    if (explicit.isPresent()) {
      return explicit;
    }
    List<Path> roots = new ArrayList<>();
    String sdkRoot = System.getenv("CLOUDSDK_ROOT_DIR");
    if (sdkRoot != null && !sdkRoot.isBlank()) {
      roots.add(Path.of(sdkRoot));
    }
    roots.add(Path.of("/usr/lib/google-cloud-sdk"));
    roots.add(Path.of("/usr/share/google-cloud-sdk"));
    roots.add(Path.of("/opt/google-cloud-sdk"));
    roots.add(Path.of(System.getProperty("user.home"), "google-cloud-sdk"));
    onPath("gcloud").ifPresent(g -> roots.add(g.getParent().getParent()));
    return roots.stream()
        .map(r -> r.resolve(Path.of("platform", dir, jar)))
        .filter(Files::isRegularFile)
        .findFirst();
  }

  /**
   * Azurite's main script ({@code azurite/dist/src/azurite.js}): from the system property or
   * environment variable given (the script, the {@code azurite} command, its package directory or a
   * directory holding {@code node_modules}), else {@code node_modules/azurite} in the working
   * directory or any directory above it, else the {@code azurite} command on the PATH.
   */
  public static Optional<Path> azuriteScript(String property, String env) {
    Optional<Path> explicit = explicit(property, env);
    if (explicit.isPresent()) {
      return explicit.flatMap(EmulatorFiles::azuriteScriptIn);
    }
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Optional<Path> found = azuriteScriptIn(dir.resolve("node_modules"));
      if (found.isPresent()) {
        return found;
      }
    }
    return onPath("azurite").flatMap(EmulatorFiles::azuriteScriptIn);
  }

  private static Optional<Path> azuriteScriptIn(Path p) {
    Path real;
    try {
      real = p.toRealPath();
    } catch (IOException e) {
      return Optional.empty();
    }
    Path script = Path.of("dist", "src", "azurite.js");
    for (Path candidate :
        List.of(real, real.resolve(script), real.resolve("azurite").resolve(script))) {
      if (Files.isRegularFile(candidate) && candidate.getFileName().toString().endsWith(".js")) {
        return Optional.of(candidate);
      }
    }
    Path nested = real.resolve("node_modules").resolve("azurite").resolve(script);
    return Files.isRegularFile(nested) ? Optional.of(nested) : Optional.empty();
  }

  /** An executable on the PATH, its symbolic links resolved. */
  public static Optional<Path> onPath(String name) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      if (dir.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(dir, name);
      if (Files.isExecutable(candidate) && !Files.isDirectory(candidate)) {
        try {
          return Optional.of(candidate.toRealPath());
        } catch (IOException e) {
          return Optional.of(candidate);
        }
      }
    }
    return Optional.empty();
  }

  /** The location (jar or class directory) this library was loaded from. */
  public static Path ownCodeSource() {
    try {
      return Path.of(ParentWatch.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException | RuntimeException e) {
      throw new IllegalStateException("cannot locate the sdk-test classes", e);
    }
  }

  /** The {@code java} of this JVM. */
  public static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static Optional<Path> explicit(String property, String env) {
    String v = System.getProperty(property);
    if (v == null || v.isBlank()) {
      v = System.getenv(env);
    }
    return v == null || v.isBlank() ? Optional.empty() : Optional.of(Path.of(v));
  }
}
