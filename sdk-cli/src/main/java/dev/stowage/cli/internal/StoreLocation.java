package dev.stowage.cli.internal;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A parsed store or blob-store URI: {@code scheme://authority/path?k=v&…}. For table stores the
 * authority is the logical table name; for blob stores it is the bucket or container and the path
 * is the key prefix. Immutable.
 *
 * @param raw the URI as given (for messages; secrets in it are not echoed, see {@link #redacted()})
 * @param scheme lowercase scheme
 * @param authority the part after {@code //} up to the path, possibly empty
 * @param path the path without its leading slash, possibly empty
 * @param params decoded query parameters
 */
public record StoreLocation(
    String raw, String scheme, String authority, String path, Map<String, String> params) {

  /**
   * Parses a URI.
   *
   * @throws CliException naming the problem
   */
  public static StoreLocation parse(String text) {
    if (text == null || !text.contains("://")) {
      throw new CliException(
          "'"
              + text
              + "' is not a store URI; expected scheme://… such as local://orders,"
              + " memory://orders, dynamodb://orders?region=eu-west-1 or file:///var/blobs");
    }
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      throw new CliException("malformed URI '" + text + "': " + e.getMessage());
    }
    Map<String, String> params = new LinkedHashMap<>();
    String q = uri.getRawQuery();
    if (q != null && !q.isEmpty()) {
      for (String pair : q.split("&")) {
        int eq = pair.indexOf('=');
        if (eq < 1) {
          throw new CliException("malformed query parameter '" + pair + "' in " + text);
        }
        params.put(
            URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    String authority = uri.getRawAuthority() == null ? "" : uri.getRawAuthority();
    String path = uri.getPath() == null ? "" : uri.getPath();
    if (path.startsWith("/") && !uri.getScheme().equalsIgnoreCase("file")) {
      path = path.substring(1);
    }
    return new StoreLocation(
        text, uri.getScheme().toLowerCase(java.util.Locale.ROOT), authority, path, params);
  }

  /** A parameter or the default. */
  public String param(String name, String dflt) {
    return params.getOrDefault(name, dflt);
  }

  /**
   * A required parameter, falling back to an environment variable.
   *
   * @throws CliException saying how to supply it
   */
  public String required(String name, String envVar) {
    String v = params.get(name);
    if (v == null && envVar != null) {
      v = System.getenv(envVar);
    }
    if (v == null || v.isEmpty()) {
      throw new CliException(
          "store "
              + redacted()
              + " needs '"
              + name
              + "'"
              + (envVar == null ? "" : " (or the environment variable " + envVar + ")"));
    }
    return v;
  }

  /** Fails on parameters this scheme does not know. */
  public StoreLocation allowOnly(String... names) {
    for (String p : params.keySet()) {
      if (!java.util.List.of(names).contains(p)) {
        throw new CliException(
            "unknown parameter '"
                + p
                + "' for "
                + scheme
                + "://; known: "
                + String.join(", ", names));
      }
    }
    return this;
  }

  /** The URI with secret parameters (connection strings, keys) replaced by {@code ***}. */
  public String redacted() {
    String s = scheme + "://" + authority + (path.isEmpty() ? "" : "/" + path);
    if (params.isEmpty()) {
      return s;
    }
    StringBuilder sb = new StringBuilder(s).append('?');
    params.forEach(
        (k, v) -> {
          if (sb.charAt(sb.length() - 1) != '?') {
            sb.append('&');
          }
          boolean secret = k.equals("connection") || k.contains("key") || k.contains("secret");
          sb.append(k).append('=').append(secret ? "***" : v);
        });
    return sb.toString();
  }

  /** The namespace parameter, empty for the root namespace. */
  public String namespace() {
    return params.getOrDefault("namespace", "");
  }
}
