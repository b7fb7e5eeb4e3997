package dev.stowage.typed;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An application in a named module whose model package is neither exported nor opened: mapping its
 * record through Stowage's own module fails with a message that says what to do, and works with a
 * lookup the application passes. The application is compiled here and run in a module layer of its
 * own, with Stowage and its dependencies as modules.
 */
class NamedModuleTest {
  @TempDir Path dir;

  private static Path locationOf(Class<?> c) throws URISyntaxException {
    return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  @Test
  void aRecordInAClosedPackageMapsThroughTheApplicationsLookup() throws Exception {
    Path src = dir.resolve("src");
    write(src.resolve("module-info.java"), "module app { requires dev.stowage; exports app; }");
    write(
        src.resolve("app/model/Point.java"),
        """
        package app.model;
        import dev.stowage.typed.PartitionKey;
        import java.util.List;
        public record Point(@PartitionKey String id, int x, List<Part> parts) {
          public record Part(String name, long size) {}
        }
        """);
    write(
        src.resolve("app/Run.java"),
        """
        package app;
        import app.model.Point;
        import dev.stowage.item.Item;
        import dev.stowage.typed.TypedSchema;
        import java.lang.invoke.MethodHandles;
        import java.util.List;
        public final class Run {
          public static String withoutLookup() {
            try {
              TypedSchema.of(Point.class);
              return "mapped";
            } catch (RuntimeException e) {
              return e.getClass().getSimpleName() + ": " + e.getMessage();
            }
          }
          public static String withLookup() {
            TypedSchema<Point> s =
                TypedSchema.builder(Point.class).lookup(MethodHandles.lookup()).build();
            Point p = new Point("a", 7, List.of(new Point.Part("bolt", 3)));
            Item item = s.toItem(p);
            return s.fromItem(item).equals(p) + " " + item;
          }
        }
        """);
    List<Path> modulePath =
        List.of(
            locationOf(TypedSchema.class),
            locationOf(com.google.crypto.tink.Aead.class),
            locationOf(com.github.luben.zstd.Zstd.class),
            locationOf(org.slf4j.Logger.class));
    String mp = modulePath.stream().map(Path::toString).collect(Collectors.joining(":"));
    Path out = dir.resolve("out");
    List<String> args =
        new ArrayList<>(List.of("--module-path", mp, "-d", out.toString(), "-proc:none"));
    try (var files = Files.walk(src)) {
      files.filter(f -> f.toString().endsWith(".java")).forEach(f -> args.add(f.toString()));
    }
    java.util.spi.ToolProvider javac = java.util.spi.ToolProvider.findFirst("javac").orElseThrow();
    assertThat(javac.run(System.out, System.err, args.toArray(new String[0]))).isZero();

    // The layer gets its own copy of Stowage; its dependencies come from the boot layer where the
    // tests run as modules (two copies of one module may not be read), else from their jars.
    List<Path> layerPath = new ArrayList<>(List.of(out, modulePath.get(0)));
    List<Class<?>> dependencies =
        List.of(
            com.google.crypto.tink.Aead.class,
            com.github.luben.zstd.Zstd.class,
            org.slf4j.Logger.class);
    for (Class<?> d : dependencies) {
      if (!d.getModule().isNamed()) {
        layerPath.add(locationOf(d));
      }
    }
    Configuration cf =
        ModuleLayer.boot()
            .configuration()
            .resolve(
                ModuleFinder.of(layerPath.toArray(new Path[0])), ModuleFinder.of(), Set.of("app"));
    ModuleLayer layer =
        ModuleLayer.boot().defineModulesWithOneLoader(cf, ClassLoader.getSystemClassLoader());
    Class<?> run = layer.findLoader("app").loadClass("app.Run");
    assertThat(run.getModule().isNamed()).isTrue();
    assertThat(run.getModule().isOpen("app.model")).isFalse();

    String refused = (String) run.getMethod("withoutLookup").invoke(null);
    assertThat(refused)
        .startsWith("InvalidRequestException: cannot map class app.model.Point")
        .contains("is not open to module dev.stowage")
        .contains("opens app.model to dev.stowage;")
        .contains("TypedSchema.builder(..).lookup(..)");

    String mapped = (String) run.getMethod("withLookup").invoke(null);
    assertThat(mapped).startsWith("true ").contains("bolt");
  }
}
