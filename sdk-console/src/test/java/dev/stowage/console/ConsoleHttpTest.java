package dev.stowage.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.Stowage;
import dev.stowage.codec.Codecs;
import dev.stowage.console.internal.json.Json;
import dev.stowage.item.Item;
import dev.stowage.memory.MemoryDriver;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The console's security model and JSON API over plain HTTP, on the memory driver. */
class ConsoleHttpTest {
  final HttpClient http = HttpClient.newHttpClient();
  ConsoleFixture fixture;
  Console console;

  @BeforeEach
  void start() {
    fixture = new ConsoleFixture(ConsoleFixture.Where.MEMORY, null);
    console = fixture.console();
  }

  @AfterEach
  void stop() {
    console.close();
    fixture.close();
  }

  HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> post(String url, String body) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create(url))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void urlIsOnLoopbackWithARandomToken() {
    URI url = console.url();
    assertThat(url.getHost()).isEqualTo("127.0.0.1");
    assertThat(url.getPath()).matches("/[A-Za-z0-9_-]{22}/");
    try (Console other = fixture.console()) {
      assertThat(other.url().getPath()).isNotEqualTo(url.getPath());
      assertThat(other.port()).isNotEqualTo(console.port());
    }
  }

  @Test
  void everyRequestWithoutTheTokenIsForbidden() throws Exception {
    String root = "http://127.0.0.1:" + console.port();
    String token = console.url().getPath().substring(1, 23);
    assertThat(get(console.url().toString()).statusCode()).isEqualTo(200);
    assertThat(get(console.url() + "api/tables").statusCode()).isEqualTo(200);
    assertThat(get(root + "/").statusCode()).isEqualTo(403);
    assertThat(get(root + "/api/tables").statusCode()).isEqualTo(403);
    assertThat(get(root + "/static/console.js").statusCode()).isEqualTo(403);
    String wrong = token.substring(0, 21) + (token.charAt(21) == 'A' ? 'B' : 'A');
    assertThat(get(root + "/" + wrong + "/api/tables").statusCode()).isEqualTo(403);
    assertThat(get(root + "/" + wrong + "/").body()).doesNotContain("orders");
    assertThat(post(root + "/" + wrong + "/api/tables/0/delete", "{}").statusCode()).isEqualTo(403);
    assertThat(fixture.table.get(ConsoleFixture.key(0))).isPresent();
  }

  @Test
  void aForeignHostHeaderIsForbidden() throws Exception {
    // DNS rebinding: a page of evil.example resolved to 127.0.0.1 sends Host: evil.example.
    try (Socket s = new Socket("127.0.0.1", console.port())) {
      String request =
          "GET "
              + console.url().getPath()
              + "api/tables HTTP/1.1\r\nHost: evil.example:"
              + console.port()
              + "\r\nConnection: close\r\n\r\n";
      s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
      String response = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
      assertThat(response).startsWith("HTTP/1.1 403");
    }
    // Nor does a loopback Host naming another port (only the port listened on is the console's).
    try (Socket s = new Socket("127.0.0.1", console.port())) {
      String request =
          "GET "
              + console.url().getPath()
              + "api/tables HTTP/1.1\r\nHost: 127.0.0.1:"
              + (console.port() + 1)
              + "\r\nConnection: close\r\n\r\n";
      s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
      String response = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
      assertThat(response).startsWith("HTTP/1.1 403");
    }
  }

  @Test
  void listensOnTheLoopbackAddressOnly() {
    // 127.0.0.2 is the loopback interface too: only a socket bound to 127.0.0.1 refuses it.
    assertThatThrownBy(
            () -> {
              try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.2", console.port()), 2000);
              }
            })
        .isInstanceOf(ConnectException.class);
  }

  @Test
  void itemsShowDecodedValuesAndStoredEnvelopes() throws Exception {
    String key = URLEncoder.encode("{\"customer\":\"ada\",\"orderNo\":3}", StandardCharsets.UTF_8);
    String body = get(console.url() + "api/tables/0/item?key=" + key).body();
    assertThat(body)
        .contains("\"text\":\"\\\"4111-0000-0000-0003\\\"\"")
        .contains("\"kind\":\"encrypted\"")
        .contains("\"kind\":\"compressed\"")
        .contains("12345678901234567890.03")
        .contains("encrypted envelope")
        .contains("stowage:ix:byStatus");
  }

  @Test
  void withoutKeysEncryptedValuesAreLabelledNotShown() throws Exception {
    try (Console noKeys =
        Console.builder()
            .store("no keys", fixture.stowage, Codecs.defaults(), ConsoleFixture.SPEC)
            .start()) {
      String key =
          URLEncoder.encode("{\"customer\":\"ada\",\"orderNo\":3}", StandardCharsets.UTF_8);
      String body = get(noKeys.url() + "api/tables/0/item?key=" + key).body();
      assertThat(body)
          .contains("\"locked\":true")
          .contains("start the console with the keyset")
          .doesNotContain("4111-0000-0000-0003")
          .contains(ConsoleFixture.LONG_NOTE.substring(0, 40));
      String page = get(noKeys.url() + "api/tables/0/query?partition=ada&limit=5").body();
      assertThat(page).contains("\"hasAfter\":true").doesNotContain("4111-0000");
    }
  }

  @Test
  void anEditOfAnItemChangedMeanwhileIsRefused() throws Exception {
    String key = "{\"customer\":\"ada\",\"orderNo\":4}";
    String enc = URLEncoder.encode(key, StandardCharsets.UTF_8);
    String view = get(console.url() + "api/tables/0/edit?key=" + enc).body();
    String fingerprint = view.replaceAll(".*\"fingerprint\":\"([0-9a-f]+)\".*", "$1");
    Item behind = ConsoleFixture.order(4).toBuilder().put("status", "shipped").build();
    fixture.table.put(behind);
    String edited =
        "{\"customer\":\"ada\",\"orderNo\":4,\"status\":\"refunded\",\"card\":\"x\",\"notes\":\"n\"}";
    HttpResponse<String> r =
        post(
            console.url() + "api/tables/0/put",
            "{\"item\":"
                + quote(edited)
                + ",\"key\":"
                + quote(key)
                + ",\"fingerprint\":\""
                + fingerprint
                + "\"}");
    assertThat(r.statusCode()).isEqualTo(409);
    assertThat(r.body()).contains("changed by someone else");
    assertThat(fixture.table.get(ConsoleFixture.key(4)).orElseThrow()).isEqualTo(behind);
  }

  @Test
  void anUnchangedItemIsEditedAndANewOneNeedsAFreeKey() throws Exception {
    String key = "{\"customer\":\"ada\",\"orderNo\":6}";
    String fingerprint = fingerprint(key);
    String edited =
        "{\"customer\":\"ada\",\"orderNo\":6,\"status\":\"refunded\",\"card\":\"4111\","
            + "\"total\":1.10}";
    HttpResponse<String> r =
        post(
            console.url() + "api/tables/0/put",
            "{\"item\":"
                + quote(edited)
                + ",\"key\":"
                + quote(key)
                + ",\"fingerprint\":\""
                + fingerprint
                + "\"}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    Item saved = fixture.table.get(ConsoleFixture.key(6)).orElseThrow();
    assertThat(saved.getString("card")).isEqualTo("4111");
    assertThat(saved.getNumber("total")).isEqualByComparingTo("1.10");
    assertThat(saved.has("notes")).isFalse();

    HttpResponse<String> taken =
        post(console.url() + "api/tables/0/put", "{\"item\":" + quote(edited) + "}");
    assertThat(taken.statusCode()).isEqualTo(409);
    assertThat(taken.body()).contains("already exists");
    assertThat(fixture.table.get(ConsoleFixture.key(6)).orElseThrow()).isEqualTo(saved);
  }

  @Test
  void aDeleteOfAnItemChangedMeanwhileIsRefused() throws Exception {
    String key = "{\"customer\":\"ada\",\"orderNo\":8}";
    String fingerprint = fingerprint(key);
    // Only the encrypted attribute changes: the fingerprint of the stored form still notices.
    Item behind = ConsoleFixture.order(8).toBuilder().put("card", "5500-0000-0000-0008").build();
    fixture.table.put(behind);
    HttpResponse<String> r =
        post(
            console.url() + "api/tables/0/delete",
            "{\"key\":" + quote(key) + ",\"fingerprint\":\"" + fingerprint + "\"}");
    assertThat(r.statusCode()).isEqualTo(409);
    assertThat(fixture.table.get(ConsoleFixture.key(8)).orElseThrow()).isEqualTo(behind);
    r =
        post(
            console.url() + "api/tables/0/delete",
            "{\"key\":" + quote(key) + ",\"fingerprint\":\"" + fingerprint(key) + "\"}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(fixture.table.get(ConsoleFixture.key(8))).isEmpty();
  }

  @Test
  void aDeleteJobIsCancelledAndResumedWithoutCountingTwice() throws Exception {
    HttpResponse<String> started =
        post(
            console.url() + "api/tables/0/delete-job",
            "{\"index\":\"byStatus\",\"partition\":\"paid\",\"maxItemsPerSecond\":\"6\","
                + "\"jobPageSize\":\"2\"}");
    assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
    String id = started.body().replaceAll(".*\"id\":\"(\\d+)\".*", "$1");
    waitFor(id, "\"deleted\":[1-9]");
    post(console.url() + "api/jobs/" + id + "/cancel", "{}");
    String cancelled = waitFor(id, "\"state\":\"cancelled\"");
    long deletedBefore = number(cancelled, "deleted");
    assertThat(deletedBefore).isBetween(1L, 19L);
    assertThat(fixture.table.queryAll(paid()).count()).isEqualTo(20 - deletedBefore);

    HttpResponse<String> resumed = post(console.url() + "api/jobs/" + id + "/resume", "{}");
    assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(200);
    String done = waitFor(id, "\"state\":\"done\"");
    assertThat(number(done, "deleted")).isEqualTo(20);
    assertThat(fixture.table.queryAll(paid()).count()).isZero();
    assertThat(post(console.url() + "api/jobs/" + id + "/resume", "{}").statusCode())
        .isEqualTo(400);
  }

  private static dev.stowage.query.Query paid() {
    return dev.stowage.query.Query.index("byStatus")
        .partition(dev.stowage.item.AttributeValue.of("paid"))
        .build();
  }

  private String waitFor(String job, String regex) throws Exception {
    java.util.regex.Pattern p = java.util.regex.Pattern.compile(regex);
    String body = "";
    for (int i = 0; i < 300; i++) {
      body = get(console.url() + "api/jobs/" + job).body();
      if (p.matcher(body).find()) {
        return body;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("job never matched " + regex + ": " + body);
  }

  private static long number(String json, String field) {
    return Long.parseLong(json.replaceAll(".*\"" + field + "\":(\\d+).*", "$1"));
  }

  private String fingerprint(String key) throws Exception {
    String enc = URLEncoder.encode(key, StandardCharsets.UTF_8);
    String view = get(console.url() + "api/tables/0/edit?key=" + enc).body();
    return view.replaceAll(".*\"fingerprint\":\"([0-9a-f]+)\".*", "$1");
  }

  @Test
  @SuppressWarnings("unchecked")
  void usageShowsHotKeysAndTheCostUnderEachModel() throws Exception {
    for (int i = 0; i < 7; i++) {
      fixture.table.get(ConsoleFixture.key(1));
    }
    String body = get(console.url() + "api/usage").body();
    Map<String, Object> store =
        (Map<String, Object>)
            ((List<Object>) ((Map<String, Object>) Json.parse(body)).get("stores")).get(0);
    assertThat(store).containsEntry("tracking", true).containsEntry("backend", "memory");
    assertThat(store.get("ownModel")).isNull();
    assertThat(store.get("pricesDate")).isEqualTo("2025-01");
    Map<String, Object> orders = (Map<String, Object>) ((List<Object>) store.get("tables")).get(0);
    assertThat(orders).containsEntry("table", "orders");
    // 25 puts of "ada" and 7 reads; 1 put of "zoe".
    assertThat(((Number) orders.get("writes")).longValue()).isEqualTo(ConsoleFixture.ORDERS + 1);
    assertThat(((Number) orders.get("reads")).longValue()).isEqualTo(7);
    List<Object> hot = (List<Object>) orders.get("hotKeys");
    Map<String, Object> table = (Map<String, Object>) hot.get(0);
    assertThat(table.get("index")).isNull();
    List<Map<String, Object>> byRequests = (List<Map<String, Object>>) table.get("byRequests");
    assertThat(byRequests.get(0)).containsEntry("key", "ada");
    assertThat(((Number) byRequests.get(0).get("count")).longValue())
        .isEqualTo(ConsoleFixture.ORDERS + 7);
    assertThat(byRequests.get(1)).containsEntry("key", "zoe");
    Map<String, Object> index = (Map<String, Object>) hot.get(1);
    assertThat(index).containsEntry("index", "byStatus");
    List<Map<String, Object>> byStatus = (List<Map<String, Object>>) index.get("byRequests");
    assertThat(byStatus.stream().map(k -> k.get("key")).toList()).startsWith("paid", "cancelled");
    List<Map<String, Object>> cost = (List<Map<String, Object>>) orders.get("cost");
    assertThat(cost.stream().map(c -> c.get("model")).toList())
        .containsExactly("dynamodb-on-demand", "dynamodb-provisioned", "datastore", "azure-tables");
    assertThat(cost)
        .allSatisfy(c -> assertThat(((Number) c.get("perMonth")).doubleValue()).isPositive());
    // The memory driver reports no billable units: every model prices Stowage's estimate.
    assertThat(cost).allSatisfy(c -> assertThat(c).containsEntry("basis", "ESTIMATED"));
  }

  @Test
  void aStoreWithoutUsageTrackingSaysSo() throws Exception {
    try (Stowage plain = Stowage.builder(MemoryDriver.create()).build()) {
      plain.ensureTable(ConsoleFixture.SPEC);
      try (Console c =
          Console.builder().store("plain", plain, Codecs.defaults(), ConsoleFixture.SPEC).start()) {
        String body = get(c.url() + "api/usage").body();
        assertThat(body).contains("\"tracking\":false").doesNotContain("\"tables\"");
      }
    }
  }

  static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
