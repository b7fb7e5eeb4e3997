package dev.stowage.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.codec.Codecs;
import dev.stowage.item.Item;
import dev.stowage.query.Query;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in headless Chromium, on each store: browse a table, page forward and back with the
 * sealed cursors, see compressed and encrypted values decoded and an overflowed one fetched, edit
 * an item changed behind the console's back (a clean conflict), edit and delete one, and run a
 * delete-by-index job to the end, then migrate the table into another namespace as a job. With
 * {@code STOWAGE_CONSOLE_SCREENSHOTS=DIR} the memory run saves the screenshots of docs/console.md
 * there.
 */
class ConsoleBrowserTest {
  private static final dev.stowage.TableSpec SPEC = ConsoleFixture.SPEC;

  @TempDir Path blobs;

  /** One browser for every store: starting Chromium costs seconds on a loaded machine. */
  static ChromeDriver browser;

  WebDriverWait wait;

  @BeforeAll
  static void startBrowser() {
    browser = Browser.start();
  }

  @AfterAll
  static void quitBrowser() {
    if (browser != null) {
      browser.quit();
    }
  }

  @ParameterizedTest
  @EnumSource(ConsoleFixture.Where.class)
  void browseDecodeEditDeleteRunADeleteJobAndMigrate(ConsoleFixture.Where where) throws Exception {
    try (ConsoleFixture fixture = new ConsoleFixture(where, blobs);
        Console console = fixture.console()) {
      wait = new WebDriverWait(browser, Duration.ofSeconds(20));
      wait.ignoring(org.openqa.selenium.StaleElementReferenceException.class);
      Path shots = where == ConsoleFixture.Where.MEMORY ? screenshots() : null;
      run(fixture, console, shots);
      migrate(fixture, where, shots);
    }
  }

  /**
   * Copies the table into another namespace of the same store as a migration job: the job shows its
   * progress per segment and its verification, and the copy holds every item.
   */
  private void migrate(ConsoleFixture fixture, ConsoleFixture.Where where, Path shots)
      throws Exception {
    String namespace =
        where == ConsoleFixture.Where.MEMORY || where == ConsoleFixture.Where.LOCAL
            ? "copy"
            : dev.stowage.test.Emulators.shared().newNamespace();
    // A view of the same store in another namespace; closing the fixture closes its driver.
    Stowage copy = fixture.stowage.namespace(namespace);
    copy.ensureTable(ConsoleFixture.SPEC);
    try (Console two =
        Console.builder()
            .store("test store", fixture.stowage, fixture.blobs, fixture.codecs, List.of(SPEC))
            .store("copy", copy, fixture.blobs, fixture.codecs, List.of(SPEC))
            .start()) {
      browser.get(two.url().toString());
      click(By.cssSelector("a.table-link[data-table='orders']"));
      wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("spec"), "byStatus"));
      new Select(browser.findElement(By.id("m-target"))).selectByValue("1");
      type(By.id("m-pagesize"), "4");
      type(By.id("m-segments"), "3");
      click(By.id("m-start"));
      browser.switchTo().alert().accept();
      By job = By.cssSelector(".job[data-kind='migrate']");
      wait.until(ExpectedConditions.visibilityOfElementLocated(job));
      wait.until(
          d -> Long.parseLong(text(By.cssSelector(".job[data-kind='migrate'] .job-copied"))) > 0);
      wait.until(ExpectedConditions.attributeToBe(job, "data-state", "done"));
      long items = fixture.table.queryAll(Query.partition("ada").build()).count() + 1;
      assertThat(text(By.cssSelector(".job[data-kind='migrate'] .job-copied")))
          .isEqualTo(Long.toString(items));
      List<WebElement> segments = browser.findElements(By.cssSelector(".job-segment"));
      if (!segments.isEmpty()) {
        assertThat(segments).hasSize(3).allMatch(e -> "true".equals(e.getAttribute("data-done")));
      }
      assertThat(text(By.cssSelector(".job[data-kind='migrate'] .job-verification")))
          .contains("source " + items, "target " + items, "missing 0", "OK");
      shoot(shots, "migration");

      // The copy is browsed in the console like the original, and holds the same items.
      Table copied = copy.table(SPEC);
      assertThat(copied.queryAll(Query.partition("ada").build()).toList())
          .isEqualTo(fixture.table.queryAll(Query.partition("ada").build()).toList());
      assertThat(copied.queryAll(Query.partition("zoe").build()).toList())
          .isEqualTo(fixture.table.queryAll(Query.partition("zoe").build()).toList());
      click(By.id("nav-browse"));
      click(By.cssSelector("a.table-link[data-table='orders']:not(.on)"));
      type(By.id("q-partition"), "ada");
      click(By.id("q-run"));
      wait.until(d -> rowKeys().contains("\"ada\" / 3"));
      openRow("\"ada\" / 3");
      assertThat(attributeRow("app-view", "card").getText()).contains("4111-0000-0000-0003");
    }
  }

  private void run(ConsoleFixture fixture, Console console, Path shots) throws Exception {
    browser.get(console.url().toString());
    click(By.cssSelector("a.table-link[data-table='orders']"));
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("spec"), "byStatus"));
    assertThat(text(By.id("spec"))).contains("customer STRING", "orderNo NUMBER", "notes", "card");

    // Page forward through 25 orders, 10 a page, then back.
    type(By.id("q-partition"), "ada");
    click(By.id("q-run"));
    waitForRows(keys(0, 10));
    assertThat(enabled(By.id("page-before"))).isFalse();
    click(By.id("page-after"));
    waitForRows(keys(10, 20));
    click(By.id("page-after"));
    waitForRows(keys(20, 25));
    assertThat(enabled(By.id("page-after"))).isFalse();
    click(By.id("page-before"));
    waitForRows(keys(10, 20));
    click(By.id("page-before"));
    waitForRows(keys(0, 10));
    shoot(shots, "browse");

    // Descending from the end.
    new Select(browser.findElement(By.id("q-order"))).selectByValue("true");
    click(By.id("q-run"));
    waitForRows(
        List.of(
            "\"ada\" / 24",
            "\"ada\" / 23",
            "\"ada\" / 22",
            "\"ada\" / 21",
            "\"ada\" / 20",
            "\"ada\" / 19",
            "\"ada\" / 18",
            "\"ada\" / 17",
            "\"ada\" / 16",
            "\"ada\" / 15"));
    new Select(browser.findElement(By.id("q-order"))).selectByValue("false");
    click(By.id("q-run"));
    waitForRows(keys(0, 10));

    // An item as the application sees it: decompressed and decrypted.
    openRow("\"ada\" / 3");
    WebElement card = attributeRow("app-view", "card");
    assertThat(card.getText()).contains("encrypted", "4111-0000-0000-0003");
    WebElement notes = attributeRow("app-view", "notes");
    assertThat(notes.getText()).contains("compressed", "please leave the parcel");
    assertThat(attributeRow("app-view", "total").getText()).contains("12345678901234567890.03");
    scrollTo("item");
    shoot(shots, "item");
    click(By.id("tab-stored"));
    assertThat(attributeRow("stored-view", "card").getText()).contains("encrypted envelope");
    assertThat(attributeRow("stored-view", "card").getText()).doesNotContain("4111");
    assertThat(text(By.id("stored-view"))).contains("stowage:ix:byStatus");
    scrollTo("item");
    shoot(shots, "stored-form");

    // The overflowed item: its large attribute is fetched on demand.
    type(By.id("q-partition"), "zoe");
    click(By.id("q-run"));
    waitForRows(List.of("\"zoe\" / 1"));
    openRow("\"zoe\" / 1");
    WebElement scan = attributeRow("app-view", "scan");
    assertThat(scan.getText()).contains("overflowed");
    assertThat(enabled(By.id("item-edit"))).as("an overflowed item is editable").isTrue();
    scan.findElement(By.cssSelector("button.fetch")).click();
    wait.until(d -> attributeRow("app-view", "scan").getText().contains("xxxxxxxxxx"));
    String fetched = attributeRow("app-view", "scan").getText();
    assertThat(fetched.contains("\"" + "x".repeat(450_000) + "\"")).isTrue();
    assertThat(fetched.endsWith("450004 bytes, from a 450016-byte blob"))
        .as("size line of the fetched attribute")
        .isTrue();

    // An edit of an item changed behind the console's back fails cleanly.
    type(By.id("q-partition"), "ada");
    click(By.id("q-run"));
    waitForRows(keys(0, 10));
    openRow("\"ada\" / 4");
    click(By.id("item-edit"));
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("editor-text")));
    String original = browser.findElement(By.id("editor-text")).getAttribute("value");
    assertThat(original).contains("4111-0000-0000-0004");
    Item behind = ConsoleFixture.order(4).toBuilder().put("status", "shipped").build();
    fixture.table.put(behind);
    type(By.id("editor-text"), original.replace("\"paid\"", "\"refunded\""));
    click(By.id("editor-save"));
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("editor-message")));
    assertThat(text(By.id("editor-message"))).contains("Not saved", "changed by someone else");
    shoot(shots, "conflict");
    assertThat(fixture.table.get(ConsoleFixture.key(4)).orElseThrow()).isEqualTo(behind);

    // Reopened, the same edit goes through.
    click(By.id("editor-cancel"));
    openRow("\"ada\" / 4");
    click(By.id("item-edit"));
    wait.until(
        d -> browser.findElement(By.id("editor-text")).getAttribute("value").contains("shipped"));
    String current = browser.findElement(By.id("editor-text")).getAttribute("value");
    type(By.id("editor-text"), current.replace("\"shipped\"", "\"refunded\""));
    click(By.id("editor-save"));
    try {
      wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("editor-text")));
    } catch (org.openqa.selenium.TimeoutException e) {
      throw new AssertionError("not saved: " + text(By.id("editor-message")), e);
    }
    Item saved = fixture.table.get(ConsoleFixture.key(4)).orElseThrow();
    assertThat(saved).isEqualTo(behind.toBuilder().put("status", "refunded").build());

    // Delete one item.
    openRow("\"ada\" / 7");
    click(By.id("item-delete"));
    browser.switchTo().alert().accept();
    wait.until(d -> !rowKeys().contains("\"ada\" / 7"));
    assertThat(fixture.table.get(ConsoleFixture.key(7))).isEmpty();

    // Delete every cancelled order through the byStatus index, as a job.
    new Select(browser.findElement(By.id("q-index"))).selectByValue("byStatus");
    type(By.id("q-partition"), "cancelled");
    click(By.id("q-run"));
    waitForRows(
        List.of("\"ada\" / 0", "\"ada\" / 5", "\"ada\" / 10", "\"ada\" / 15", "\"ada\" / 20"));
    click(By.id("q-delete-all"));
    browser.switchTo().alert().accept();
    wait.until(
        ExpectedConditions.attributeToBe(By.cssSelector(".job[data-job]"), "data-state", "done"));
    assertThat(text(By.cssSelector(".job .job-deleted"))).isEqualTo("5");
    shoot(shots, "jobs");
    assertThat(
            fixture
                .table
                .queryAll(
                    Query.index("byStatus")
                        .partition(dev.stowage.item.AttributeValue.of("cancelled"))
                        .build())
                .count())
        .isZero();
    assertThat(fixture.table.queryAll(Query.partition("ada").build()).count())
        .isEqualTo(ConsoleFixture.ORDERS - 6);

    click(By.id("nav-metrics"));
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("metrics"), "orders"));
    assertThat(text(By.id("metrics"))).contains("writes", "compressed values");
    shoot(shots, "metrics");

    // Usage: the hot partition keys of the table and its index, and the cost under each model.
    click(By.id("nav-usage"));
    By hottest =
        By.cssSelector(
            ".usage-table[data-table='orders'] .hot[data-index=''] table[data-ranking='byRequests'] tr.hot-key");
    wait.until(ExpectedConditions.visibilityOfElementLocated(hottest));
    assertThat(browser.findElements(hottest).get(0).getAttribute("data-key")).isEqualTo("ada");
    assertThat(
            text(By.cssSelector(".usage-table[data-table='orders'] .hot[data-index='byStatus']")))
        .contains("index byStatus", "paid", "cancelled");
    assertThat(text(By.cssSelector(".usage-table[data-table='orders'] table.cost")))
        .contains("dynamodb-on-demand", "datastore", "azure-tables", "$");
    shoot(shots, "usage");

    // Without the keys: the encrypted attribute is labelled, never shown as ciphertext.
    try (Console noKeys =
        Console.builder()
            .store("test store, no keys", fixture.stowage, Codecs.defaults(), ConsoleFixture.SPEC)
            .start()) {
      browser.get(noKeys.url().toString());
      click(By.cssSelector("a.table-link[data-table='orders']"));
      type(By.id("q-partition"), "ada");
      click(By.id("q-run"));
      wait.until(d -> rowKeys().contains("\"ada\" / 3"));
      assertThat(text(By.id("items"))).contains("(encrypted)").doesNotContain("4111-");
      openRow("\"ada\" / 3");
      WebElement locked = attributeRow("app-view", "card");
      assertThat(locked.getText()).contains("encrypted", "start the console with the keyset");
      assertThat(locked.getText()).doesNotContain("4111");
      assertThat(attributeRow("app-view", "notes").getText()).contains("please leave the parcel");
      assertThat(enabled(By.id("item-edit"))).isFalse();
      scrollTo("item");
      shoot(shots, "no-keys");
    }
  }

  private void scrollTo(String id) {
    browser.executeScript("document.getElementById(arguments[0]).scrollIntoView()", id);
  }

  private static List<String> keys(int from, int to) {
    return java.util.stream.IntStream.range(from, to).mapToObj(i -> "\"ada\" / " + i).toList();
  }

  private List<String> rowKeys() {
    // One script call reads every row at once: rows re-render under Alpine while a page loads.
    Object keys =
        browser.executeScript(
            "return Array.from(document.querySelectorAll('tr.item-row'), r => r.dataset.key)");
    return ((List<?>) keys).stream().map(String::valueOf).toList();
  }

  private void waitForRows(List<String> expected) {
    try {
      wait.until(d -> rowKeys().equals(expected));
    } catch (org.openqa.selenium.TimeoutException e) {
      throw new AssertionError(
          "expected rows "
              + expected
              + ", shown "
              + rowKeys()
              + "; page error: "
              + browser.findElement(By.id("error")).getText(),
          e);
    }
  }

  private void openRow(String key) {
    click(By.cssSelector("tr.item-row[data-key='" + key.replace("'", "\\'") + "']"));
    wait.until(
        d ->
            !browser.findElements(By.cssSelector("#app-view tr[data-attr]")).isEmpty()
                && browser.findElement(By.id("item")).isDisplayed());
    // The item panel re-renders when the row's item arrives: wait for this row's key.
    wait.until(
        d ->
            attributeRow("app-view", "orderNo")
                .getText()
                .contains(key.substring(key.lastIndexOf(' ') + 1)));
  }

  /**
   * The row of attribute {@code name} in the view {@code table}, once it is shown: a view just
   * switched to may not be rendered yet, and a hidden element's text reads as empty.
   */
  private WebElement attributeRow(String table, String name) {
    return wait.until(
        ExpectedConditions.visibilityOfElementLocated(
            By.cssSelector("#" + table + " tr[data-attr='" + name + "']")));
  }

  private void click(By by) {
    wait.until(ExpectedConditions.elementToBeClickable(by)).click();
  }

  private void type(By by, String text) {
    WebElement e = wait.until(ExpectedConditions.visibilityOfElementLocated(by));
    e.clear();
    e.sendKeys(text);
  }

  private String text(By by) {
    return wait.until(ExpectedConditions.visibilityOfElementLocated(by)).getText();
  }

  private boolean enabled(By by) {
    return browser.findElement(by).isEnabled();
  }

  private static Path screenshots() {
    String dir = System.getenv("STOWAGE_CONSOLE_SCREENSHOTS");
    return dir == null ? null : Path.of(dir);
  }

  private void shoot(Path dir, String name) throws Exception {
    if (dir == null) {
      return;
    }
    Files.createDirectories(dir);
    Path png = browser.getScreenshotAs(OutputType.FILE).toPath();
    Files.copy(png, dir.resolve("console-" + name + ".png"), StandardCopyOption.REPLACE_EXISTING);
  }
}
