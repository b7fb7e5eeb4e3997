package dev.stowage.console.internal;

import dev.stowage.ConditionFailedException;
import dev.stowage.InvalidCursorException;
import dev.stowage.InvalidRequestException;
import dev.stowage.StowageException;
import dev.stowage.console.internal.json.Json;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.ForbiddenResponse;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The console's HTTP server (Javalin on Jetty), bound to 127.0.0.1: the page, its scripts and the
 * JSON API, all under {@code /TOKEN/}. Every request must name the session's token in its path and
 * the loopback address or {@code localhost} in its {@code Host} header (against DNS rebinding), or
 * it is refused with 403 before any handler runs.
 */
public final class ConsoleServer {
  /** The only files the page loads, from this package's {@code web} resources. */
  private static final Map<String, String> STATIC =
      Map.of(
          "console.js", "text/javascript",
          "console.css", "text/css",
          "cdn.min.js", "text/javascript");

  private static final String LOOPBACK = "127.0.0.1";

  private final Javalin app;
  private final Jobs jobs;
  private final String token;

  private ConsoleServer(Javalin app, Jobs jobs, String token) {
    this.app = app;
    this.jobs = jobs;
    this.token = token;
  }

  /** Starts a server over the catalog on 127.0.0.1 and {@code port} (0: any free one). */
  public static ConsoleServer start(Catalog catalog, int port) {
    byte[] random = new byte[16];
    new SecureRandom().nextBytes(random);
    String token = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    Jobs jobs = new Jobs();
    TableApi api = new TableApi(catalog, jobs);
    String base = "/" + token;
    // The port actually listened on (known once started): the Host header must name it.
    AtomicInteger listening = new AtomicInteger(-1);
    Javalin app =
        Javalin.create(
            config -> {
              config.startup.showJavalinBanner = false;
              config.startup.showOldJavalinVersionWarning = false;
              config.jetty.host = LOOPBACK;
              config.jetty.port = port;
              config.routes.before(ctx -> guard(ctx, token, listening.get()));
              config.routes.get(base + "/", ctx -> resource(ctx, "index.html", "text/html"));
              config.routes.get(
                  base + "/static/{file}",
                  ctx -> {
                    String file = ctx.pathParam("file");
                    String type = STATIC.get(file);
                    if (type == null) {
                      ctx.status(404);
                      return;
                    }
                    resource(ctx, file, type);
                  });
              config.routes.get(base + "/api/tables", ctx -> json(ctx, api.tables()));
              config.routes.get(
                  base + "/api/tables/{id}/query",
                  ctx -> json(ctx, api.query(ctx.pathParam("id"), f -> param(ctx, f))));
              config.routes.get(
                  base + "/api/tables/{id}/page",
                  ctx ->
                      json(
                          ctx,
                          api.page(ctx.pathParam("id"), param(ctx, "cursor"), f -> param(ctx, f))));
              config.routes.get(
                  base + "/api/tables/{id}/item",
                  ctx -> json(ctx, api.item(ctx.pathParam("id"), param(ctx, "key"))));
              config.routes.get(
                  base + "/api/tables/{id}/edit",
                  ctx -> json(ctx, api.editable(ctx.pathParam("id"), param(ctx, "key"))));
              config.routes.get(
                  base + "/api/tables/{id}/attribute",
                  ctx ->
                      json(
                          ctx,
                          api.attribute(
                              ctx.pathParam("id"), param(ctx, "key"), param(ctx, "name"))));
              config.routes.post(
                  base + "/api/tables/{id}/put",
                  ctx -> {
                    Map<?, ?> body = body(ctx);
                    json(
                        ctx,
                        api.put(
                            ctx.pathParam("id"),
                            (String) body.get("item"),
                            (String) body.get("key"),
                            (String) body.get("fingerprint")));
                  });
              config.routes.post(
                  base + "/api/tables/{id}/delete",
                  ctx -> {
                    Map<?, ?> body = body(ctx);
                    json(
                        ctx,
                        api.delete(
                            ctx.pathParam("id"),
                            (String) body.get("key"),
                            (String) body.get("fingerprint")));
                  });
              config.routes.post(
                  base + "/api/tables/{id}/delete-job",
                  ctx -> {
                    Map<?, ?> body = body(ctx);
                    json(
                        ctx,
                        api.startDelete(
                            ctx.pathParam("id"),
                            f ->
                                body.get(f) == null || "".equals(body.get(f))
                                    ? null
                                    : String.valueOf(body.get(f))));
                  });
              config.routes.post(
                  base + "/api/tables/{id}/migrate-job",
                  ctx -> {
                    Map<?, ?> body = body(ctx);
                    json(
                        ctx,
                        api.startMigration(
                            ctx.pathParam("id"),
                            f ->
                                body.get(f) == null || "".equals(body.get(f))
                                    ? null
                                    : String.valueOf(body.get(f))));
                  });
              config.routes.get(
                  base + "/api/jobs/{id}", ctx -> json(ctx, jobs.describe(ctx.pathParam("id"))));
              config.routes.post(
                  base + "/api/jobs/{id}/cancel",
                  ctx -> {
                    jobs.cancel(ctx.pathParam("id"));
                    json(ctx, jobs.describe(ctx.pathParam("id")));
                  });
              config.routes.post(
                  base + "/api/jobs/{id}/resume",
                  ctx -> {
                    jobs.resume(ctx.pathParam("id"));
                    json(ctx, jobs.describe(ctx.pathParam("id")));
                  });
              config.routes.get(base + "/api/metrics", ctx -> json(ctx, api.metrics()));
              config.routes.get(base + "/api/usage", ctx -> json(ctx, api.usage()));
              config.routes.exception(
                  TableApi.Conflict.class, (e, ctx) -> error(ctx, 409, e.getMessage()));
              config.routes.exception(
                  ConditionFailedException.class, (e, ctx) -> error(ctx, 409, e.getMessage()));
              config.routes.exception(
                  TableApi.NotFound.class, (e, ctx) -> error(ctx, 404, e.getMessage()));
              config.routes.exception(
                  NoSuchElementException.class, (e, ctx) -> error(ctx, 404, e.getMessage()));
              config.routes.exception(
                  IllegalArgumentException.class, (e, ctx) -> error(ctx, 400, e.getMessage()));
              config.routes.exception(
                  InvalidRequestException.class, (e, ctx) -> error(ctx, 400, e.getMessage()));
              config.routes.exception(
                  InvalidCursorException.class, (e, ctx) -> error(ctx, 400, e.getMessage()));
              config.routes.exception(
                  StowageException.class, (e, ctx) -> error(ctx, 502, e.getMessage()));
            });
    try {
      app.start(LOOPBACK, port);
      listening.set(app.port());
    } catch (RuntimeException e) {
      jobs.close();
      throw new IllegalStateException(
          "cannot start the console on " + LOOPBACK + ":" + port + ": " + e.getMessage(), e);
    }
    return new ConsoleServer(app, jobs, token);
  }

  /** The URL with the token. */
  public URI url() {
    return URI.create("http://" + LOOPBACK + ":" + app.port() + "/" + token + "/");
  }

  /** The port listened on. */
  public int port() {
    return app.port();
  }

  /** Cancels jobs and stops the server. */
  public void stop() {
    jobs.close();
    app.stop();
  }

  private static void guard(Context ctx, String token, int port) {
    String host = ctx.header("Host");
    boolean localHost =
        host != null && (host.equals(LOOPBACK + ":" + port) || host.equals("localhost:" + port));
    String path = ctx.path();
    String prefix = path.length() > 1 ? path.substring(1).split("/", 2)[0] : "";
    boolean tokenOk =
        MessageDigest.isEqual(
            prefix.getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8));
    if (!localHost || !tokenOk) {
      throw new ForbiddenResponse("forbidden: open the URL the console printed");
    }
    ctx.header("Cache-Control", "no-store");
    ctx.header("Referrer-Policy", "no-referrer");
    ctx.header("X-Frame-Options", "DENY");
    ctx.header("X-Content-Type-Options", "nosniff");
    // Alpine.js evaluates its directives with new Function: 'unsafe-eval', nothing from elsewhere.
    ctx.header(
        "Content-Security-Policy",
        "default-src 'self'; script-src 'self' 'unsafe-eval'; style-src 'self' 'unsafe-inline';"
            + " img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'");
  }

  private static String param(Context ctx, String name) {
    String v = ctx.queryParam(name);
    return v == null || v.isBlank() ? null : v;
  }

  private static Map<?, ?> body(Context ctx) {
    Object json = Json.parse(ctx.body());
    if (!(json instanceof Map<?, ?> m)) {
      throw new IllegalArgumentException("the request body must be a JSON object");
    }
    return m;
  }

  private static void json(Context ctx, Object value) {
    ctx.contentType("application/json; charset=utf-8");
    ctx.result(Json.write(value));
  }

  private static void error(Context ctx, int status, String message) {
    ctx.status(status);
    json(ctx, Map.of("error", message == null ? "error" : message));
  }

  private static void resource(Context ctx, String name, String type) throws IOException {
    try (InputStream in = ConsoleServer.class.getResourceAsStream("web/" + name)) {
      if (in == null) {
        ctx.status(404);
        return;
      }
      ctx.contentType(type + "; charset=utf-8");
      ctx.result(in.readAllBytes());
    }
  }
}
