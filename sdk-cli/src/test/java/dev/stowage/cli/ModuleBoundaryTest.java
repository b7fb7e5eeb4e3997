package dev.stowage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.module.ModuleDescriptor;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The module descriptors keep Stowage's {@code internal} packages to their own modules: no module
 * exports one to everybody, and the command line reads only exported packages. (The tests run as
 * the patched {@code dev.stowage.cli} module, so the descriptors here are the built ones.)
 */
class ModuleBoundaryTest {
  private static final List<String> LIBRARY =
      List.of(
          "dev.stowage",
          "dev.stowage.migrate",
          "dev.stowage.console",
          "dev.stowage.dynamodb",
          "dev.stowage.datastore",
          "dev.stowage.azure",
          "dev.stowage.local");

  @Test
  void theCommandLineRunsAsANamedModuleOverTheLibraryModules() {
    Module cli = ModuleBoundaryTest.class.getModule();
    assertThat(cli.getName()).isEqualTo("dev.stowage.cli");
    for (String name : LIBRARY) {
      assertThat(cli.getLayer().findModule(name)).as(name).isPresent();
    }
  }

  @Test
  void noModuleExportsAnInternalPackageToEverybody() {
    ModuleLayer layer = ModuleBoundaryTest.class.getModule().getLayer();
    for (String name : LIBRARY) {
      ModuleDescriptor d = layer.findModule(name).orElseThrow().getDescriptor();
      Set<String> open =
          d.exports().stream()
              .filter(e -> !e.isQualified())
              .map(ModuleDescriptor.Exports::source)
              .collect(Collectors.toSet());
      assertThat(open).as(name).isNotEmpty().noneMatch(p -> p.contains(".internal"));
      assertThat(d.isOpen()).as(name + " is open").isFalse();
      assertThat(d.opens()).as(name + " opens").isEmpty();
      d.exports().stream()
          .filter(ModuleDescriptor.Exports::isQualified)
          .forEach(
              e ->
                  assertThat(e.targets()).as(e.source()).containsOnly(qualifiedTarget(e.source())));
    }
    assertThat(ModuleBoundaryTest.class.getModule().getDescriptor().exports())
        .extracting(ModuleDescriptor.Exports::source)
        .containsExactly("dev.stowage.cli");
  }

  /**
   * Internal packages are exported to the benchmarks only, with one exception: the item JSON form
   * that the command line and the console both speak lives in the console and is shared with the
   * command line, so that the two never drift apart.
   */
  private static String qualifiedTarget(String pkg) {
    return pkg.equals("dev.stowage.console.internal.json")
        ? "dev.stowage.cli"
        : "dev.stowage.bench";
  }
}
