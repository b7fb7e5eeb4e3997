package dev.stowage.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * The module descriptor exports only {@code dev.stowage.test}, and the module resolves on a module
 * path that holds none of the optional backends (a user with no cloud SDK), where the session
 * listener that stops the emulators is still found. (This module's tests run on the class path, so
 * the layer is built here from the compiled classes.)
 */
class ModuleDescriptorTest {
  private static final Path CLASSES = Path.of("target", "classes");

  /** The jars of the module's mandatory requirements, and JUnit's launcher for the listener. */
  private static final Pattern MANDATORY =
      Pattern.compile(
          ".*(sdk-api|tink-|zstd-jni-|slf4j-api-|junit-jupiter-api-|opentest4j-"
              + "|junit-platform-(commons|engine|launcher)-|apiguardian-api-|jspecify-).*");

  @Test
  void exportsOnlyItsPublicPackageAndProvidesTheSessionListener() throws Exception {
    ModuleDescriptor d;
    try (var in = Files.newInputStream(CLASSES.resolve("module-info.class"))) {
      d = ModuleDescriptor.read(in);
    }
    assertThat(d.name()).isEqualTo("dev.stowage.test");
    assertThat(d.exports())
        .extracting(ModuleDescriptor.Exports::source)
        .containsExactly("dev.stowage.test");
    assertThat(d.exports()).noneMatch(ModuleDescriptor.Exports::isQualified);
    assertThat(d.isOpen()).isFalse();
    assertThat(d.opens()).isEmpty();
    assertThat(d.packages()).contains("dev.stowage.test.internal");
    assertThat(d.provides())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.service()).isEqualTo(LauncherSessionListener.class.getName());
              assertThat(p.providers())
                  .containsExactly("dev.stowage.test.internal.SessionListener");
            });
    // Every cloud SDK is optional: a user has only the backends they test.
    Set<String> mandatory =
        d.requires().stream()
            .filter(r -> !r.modifiers().contains(ModuleDescriptor.Requires.Modifier.STATIC))
            .map(ModuleDescriptor.Requires::name)
            .collect(Collectors.toSet());
    assertThat(mandatory)
        .containsExactlyInAnyOrder("java.base", "dev.stowage", "org.junit.jupiter.api");
  }

  @Test
  void resolvesAsANamedModuleWithoutAnyCloudSdk() throws Throwable {
    List<Path> path = new ArrayList<>();
    path.add(CLASSES);
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (MANDATORY.matcher(entry).matches() && !entry.contains("sdk-test")) {
        path.add(Path.of(entry));
      }
    }
    ModuleFinder finder = ModuleFinder.of(path.toArray(Path[]::new));
    Configuration config =
        ModuleLayer.boot()
            .configuration()
            .resolveAndBind(
                finder,
                ModuleFinder.of(),
                Set.of("dev.stowage.test", "org.junit.platform.launcher"));
    ModuleLayer layer =
        ModuleLayer.boot().defineModulesWithOneLoader(config, ClassLoader.getPlatformClassLoader());
    Module module = layer.findModule("dev.stowage.test").orElseThrow();
    assertThat(module.isExported("dev.stowage.test")).isTrue();
    assertThat(module.isExported("dev.stowage.test.internal")).isFalse();
    assertThat(layer.findModule("software.amazon.awssdk.services.dynamodb")).isEmpty();

    Class<?> service =
        layer
            .findLoader("org.junit.platform.launcher")
            .loadClass(LauncherSessionListener.class.getName());
    assertThat(ServiceLoader.load(layer, service).stream().map(p -> p.type().getName()))
        .containsExactly("dev.stowage.test.internal.SessionListener");
    // Emulators links and initializes without any backend present. (Linked by name as compiled
    // code does: reflection's getMethod would load every signature type, Cloud Storage's included.)
    Class<?> emulators = Class.forName("dev.stowage.test.Emulators", true, module.getClassLoader());
    Object shared =
        MethodHandles.publicLookup()
            .findStatic(emulators, "shared", MethodType.methodType(emulators))
            .invoke();
    assertThat(shared).isNotNull();
  }
}
