package dev.stowage.console;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Headless Chromium through chromedriver, from the Debian packages {@code chromium} and {@code
 * chromium-driver} (tools/ensure-chromium.sh installs them in the build). A missing browser fails
 * the test with what to install; it is never a skip.
 */
final class Browser {
  private Browser() {}

  static ChromeDriver start() {
    Path chromium = find("CHROME_BIN", "chromium", "chromium-browser", "google-chrome");
    Path driver = find("CHROMEDRIVER", "chromedriver");
    if (chromium == null || driver == null) {
      throw new IllegalStateException(
          "the console's browser tests need headless Chromium and chromedriver on the PATH"
              + " (Debian: apt-get install chromium chromium-driver; tools/ensure-chromium.sh does"
              + " it as root); missing: "
              + (chromium == null ? "chromium " : "")
              + (driver == null ? "chromedriver" : ""));
    }
    ChromeOptions options = new ChromeOptions();
    options.setBinary(chromium.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        // Fewer processes and no background throttling: steadier on a loaded test machine.
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-renderer-backgrounding",
        "--disable-background-timer-throttling",
        "--disable-features=site-per-process,Translate,BackForwardCache",
        "--window-size=1400,1000");
    ChromeDriverService service =
        new ChromeDriverService.Builder().usingDriverExecutable(driver.toFile()).build();
    ChromeDriver browser = new ChromeDriver(service, options);
    browser.manage().timeouts().scriptTimeout(Duration.ofSeconds(20));
    return browser;
  }

  private static Path find(String env, String... names) {
    String given = System.getenv(env);
    if (given != null && Files.isExecutable(Path.of(given))) {
      return Path.of(given);
    }
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      for (String n : names) {
        Path p = Path.of(dir, n);
        if (Files.isExecutable(p)) {
          return p;
        }
      }
    }
    return null;
  }
}
