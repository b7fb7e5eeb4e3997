package dev.stowage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.console.internal.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code stowage console}: serves the console until interrupted, on 127.0.0.1 with a token. */
class ConsoleCommandTest {
  private static final Pattern URL = Pattern.compile("http://127\\.0\\.0\\.1:\\d+/[A-Za-z0-9_-]+/");

  @Test
  void servesTheTablesOfItsStoresUntilInterrupted() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    AtomicInteger code = new AtomicInteger(-1);
    Thread command =
        new Thread(
            () ->
                code.set(
                    Main.run(
                        new String[] {
                          "console",
                          "--store",
                          "memory://orders",
                          "--pk",
                          "customer:S",
                          "--sk",
                          "orderNo:N",
                          "--compressed",
                          "notes",
                          "--create-tables",
                          "--no-open"
                        },
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8))));
    command.start();
    String url = null;
    for (int i = 0; i < 200 && url == null; i++) {
      Matcher m = URL.matcher(out.toString(StandardCharsets.UTF_8));
      url = m.find() ? m.group() : null;
      Thread.sleep(50);
    }
    assertThat(url).as("printed URL; stderr: %s", err).isNotNull();
    assertThat(get(url + "api/tables")).contains("\"name\":\"orders\"", "notes", "memory");
    String withoutToken = url.substring(0, url.indexOf('/', "http://".length()) + 1);
    assertThat(status(withoutToken + "api/tables")).isEqualTo(403);

    command.interrupt();
    command.join(10_000);
    assertThat(command.isAlive()).isFalse();
    assertThat(code.get()).isNotZero();
  }

  @Test
  void showsWhatPutWroteToTheDefaultLocalStore() throws Exception {
    Cli.Result put =
        Cli.run(
            "put",
            "--store",
            "consoled",
            "--pk",
            "id:S",
            "--create-table",
            "--item",
            "{\"id\":\"a1\",\"total\":12.50}");
    assertThat(put.code()).as(put.err()).isZero();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Thread command =
        new Thread(
            () ->
                Main.run(
                    new String[] {"console", "--store", "consoled", "--pk", "id:S", "--no-open"},
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
    command.start();
    String url = null;
    for (int i = 0; i < 200 && url == null; i++) {
      Matcher m = URL.matcher(out.toString(StandardCharsets.UTF_8));
      url = m.find() ? m.group() : null;
      Thread.sleep(50);
    }
    assertThat(url).isNotNull();
    assertThat(get(url + "api/tables")).contains("consoled", "\"backend\":\"local\"");
    assertThat(get(url + "api/tables/0/query?partition=a1"))
        .contains("\"keyLabel\":\"\\\"a1\\\"\"")
        .contains("12.5");
    // The console tracks usage on the stores it opens: its own query shows as a hot key.
    assertThat(get(url + "api/usage"))
        .contains("\"tracking\":true", "\"key\":\"a1\"", "dynamodb-on-demand");
    command.interrupt();
    command.join(10_000);
    assertThat(command.isAlive()).isFalse();
  }

  @Test
  void migratesATableWithAnOverflowedItemIntoAnotherNamespaceAsAJob() throws Exception {
    String big = "{\"id\":\"big\",\"scan\":\"" + "x".repeat(500_000) + "\"}";
    for (String item : new String[] {"{\"id\":\"a1\",\"total\":12.50}", big}) {
      Cli.Result put =
          Cli.run("put", "--store", "migsrc", "--pk", "id:S", "--create-table", "--item", item);
      assertThat(put.code()).as(put.err()).isZero();
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Thread command =
        new Thread(
            () ->
                Main.run(
                    new String[] {
                      "console",
                      "--store",
                      "migsrc",
                      "--store",
                      "local://migsrc?namespace=staging",
                      "--pk",
                      "id:S",
                      "--create-tables",
                      "--no-open"
                    },
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
    command.start();
    try {
      String url = null;
      for (int i = 0; i < 200 && url == null; i++) {
        Matcher m = URL.matcher(out.toString(StandardCharsets.UTF_8));
        url = m.find() ? m.group() : null;
        Thread.sleep(50);
      }
      assertThat(url).isNotNull();
      String job = post(url + "api/tables/0/migrate-job", "{\"target\":\"1\"}");
      String id = job.replaceAll(".*\"id\":\"(\\d+)\".*", "$1");
      String state = "";
      for (int i = 0; i < 200 && !state.contains("\"state\":\"done\""); i++) {
        Thread.sleep(50);
        state = get(url + "api/jobs/" + id);
      }
      // The overflowed item's blob was copied through the stores' blob stores (the default local
      // blob directory), and the job verified both sides.
      assertThat(state).contains("\"state\":\"done\"", "\"copied\":2", "\"blobsCopied\":1");
      assertThat(state).contains("\"ok\":true");
      assertThat(get(url + "api/tables/1/query?partition=big")).contains("overflowed");
      assertThat(get(url + "api/tables/1/attribute?key=" + keyOf(url, "big") + "&name=scan"))
          .contains("x".repeat(1000));
    } finally {
      command.interrupt();
      command.join(10_000);
    }
  }

  /** The console's key token of the copy's item {@code id}, from its query. */
  private static String keyOf(String url, String id) throws IOException {
    Map<?, ?> page = (Map<?, ?>) Json.parse(get(url + "api/tables/1/query?partition=" + id));
    Map<?, ?> item = (Map<?, ?>) ((List<?>) page.get("items")).get(0);
    return java.net.URLEncoder.encode((String) item.get("key"), StandardCharsets.UTF_8);
  }

  private static String post(String url, String body) throws IOException {
    HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
    c.setRequestMethod("POST");
    c.setDoOutput(true);
    c.setRequestProperty("Content-Type", "application/json");
    c.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
    try (InputStream in = c.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      c.disconnect();
    }
  }

  @Test
  void aMissingTableIsAnErrorWithoutCreateTables() {
    Cli.Result r =
        Cli.run("console", "--store", "memory://neverput", "--pk", "customer:S", "--no-open");
    assertThat(r.code()).isNotZero();
    assertThat(r.err()).contains("neverput").contains("--create-table");
  }

  private static String get(String url) throws IOException {
    HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
    try (InputStream in = c.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      c.disconnect();
    }
  }

  private static int status(String url) throws IOException {
    HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
    try {
      return c.getResponseCode();
    } finally {
      c.disconnect();
    }
  }
}
