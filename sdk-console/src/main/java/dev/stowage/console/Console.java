package dev.stowage.console;

import dev.stowage.Stowage;
import dev.stowage.TableSpec;
import dev.stowage.codec.Codecs;
import dev.stowage.console.internal.Catalog;
import dev.stowage.console.internal.ConsoleServer;
import dev.stowage.overflow.BlobStore;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A local web console over Stowage tables: lists each store's tables with their specs, browses them
 * with queries and bidirectional cursors, shows every item as the application sees it
 * (decompressed, decrypted with the codecs' keys, overflowed attributes fetched on demand) beside
 * its stored form, edits and deletes items with conditional writes, and runs jobs with live
 * progress, cancel and resume: delete-by-index, and migration of a table to another of the
 * console's stores (in its stored form, as {@link dev.stowage.migrate.Migrator} copies it).
 *
 * <pre>{@code
 * try (Console console = Console.builder().store("prod", stowage, codecs, ordersSpec).start()) {
 *   System.out.println(console.url());
 *   ...
 * }
 * }</pre>
 *
 * <p>Security: the server binds to 127.0.0.1 only; {@link #url()} carries a random per-console
 * token (128 bits) that every request must present in its path, else it is refused with 403, and
 * requests whose {@code Host} header names another host are refused too (DNS rebinding). Keys stay
 * in this process: encrypted values are decrypted here and only their plaintext is sent to the
 * browser that holds the token; without keys they are shown as "encrypted".
 *
 * <p>Thread-safe. {@link #close()} stops the server and any running job; it does not close the
 * stores.
 */
public final class Console implements AutoCloseable {
  private final ConsoleServer server;

  private Console(ConsoleServer server) {
    this.server = server;
  }

  /** Starts configuring a console. */
  public static Builder builder() {
    return new Builder();
  }

  /** The URL to open, with the session token: {@code http://127.0.0.1:PORT/TOKEN/}. */
  public URI url() {
    return server.url();
  }

  /** The port the console listens on (on 127.0.0.1). */
  public int port() {
    return server.port();
  }

  /** Stops the server and cancels running jobs; idempotent. The stores stay open. */
  @Override
  public void close() {
    server.stop();
  }

  /** Configures a {@link Console}; not thread-safe. */
  public static final class Builder {
    private final List<Catalog.StoreEntry> stores = new ArrayList<>();
    private int port;

    private Builder() {}

    /**
     * Adds a store and the tables of it to show.
     *
     * @param label a name for the store in the console, for example its URI without secrets
     * @param stowage the store (its namespace is shown); the console does not close it
     * @param codecs the codecs the store was built with: their keys decrypt encrypted values for
     *     display and their settings encode edits; {@link Codecs#defaults()} when it has no keys
     * @param tables the specs of the tables to show (each must exist in the store)
     * @return this builder
     * @throws NullPointerException if an argument is null
     */
    public Builder store(String label, Stowage stowage, Codecs codecs, List<TableSpec> tables) {
      return store(label, stowage, null, codecs, tables);
    }

    /**
     * Adds a store, the blob store it overflows to, and the tables of it to show. Migration jobs
     * need the blob stores of both sides to copy overflowed items (the store does not expose its
     * own); a table that never overflowed migrates without them.
     *
     * @param label a name for the store in the console, for example its URI without secrets
     * @param stowage the store (its namespace is shown); the console does not close it
     * @param blobs the blob store {@code stowage} was built with, or null if it has none; the
     *     console does not close it
     * @param codecs the codecs the store was built with; see {@link #store(String, Stowage, Codecs,
     *     List)}
     * @param tables the specs of the tables to show (each must exist in the store)
     * @return this builder
     * @throws NullPointerException if an argument other than {@code blobs} is null
     */
    public Builder store(
        String label, Stowage stowage, BlobStore blobs, Codecs codecs, List<TableSpec> tables) {
      stores.add(
          new Catalog.StoreEntry(
              Objects.requireNonNull(label, "label"),
              Objects.requireNonNull(stowage, "stowage"),
              blobs,
              Objects.requireNonNull(codecs, "codecs"),
              List.copyOf(tables)));
      return this;
    }

    /** Adds a store with tables; see {@link #store(String, Stowage, Codecs, List)}. */
    public Builder store(String label, Stowage stowage, Codecs codecs, TableSpec... tables) {
      return store(label, stowage, codecs, List.of(tables));
    }

    /**
     * The port to listen on; default 0, a free port chosen by the system.
     *
     * @throws IllegalArgumentException if not 0 to 65535
     */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port must be 0 to 65535");
      }
      this.port = port;
      return this;
    }

    /**
     * Opens the tables and starts the server on 127.0.0.1.
     *
     * @return the running console
     * @throws dev.stowage.NotFoundException if a table does not exist
     * @throws IllegalStateException if the port cannot be bound
     */
    public Console start() {
      return new Console(ConsoleServer.start(new Catalog(stores), port));
    }
  }
}
