package dev.stowage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Micrometer is optional: a store built, used and observed with a request listener runs in a class
 * loader that has every dependency of Stowage except Micrometer.
 */
class WithoutMicrometerTest {
  @Test
  void theCoreNeverLoadsMicrometer() throws Exception {
    List<URL> urls = new ArrayList<>();
    urls.add(WithoutMicrometerProbe.class.getProtectionDomain().getCodeSource().getLocation());
    for (String property : new String[] {"jdk.module.path", "java.class.path"}) {
      String value = System.getProperty(property);
      if (value == null || value.isEmpty()) {
        continue;
      }
      for (String entry : value.split(File.pathSeparator)) {
        if (!entry.contains("micrometer")) {
          urls.add(Path.of(entry).toUri().toURL());
        }
      }
    }
    try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), null)) {
      Class<?> probe = Class.forName(WithoutMicrometerProbe.class.getName(), true, loader);
      assertThat(probe.getClassLoader()).isSameAs(loader);
      Runnable run = (Runnable) probe.getDeclaredConstructor().newInstance();
      run.run();
      assertThat(run.toString()).isEqualTo("ok without micrometer");
    }
  }
}
