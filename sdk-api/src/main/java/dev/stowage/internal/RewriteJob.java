package dev.stowage.internal;

import dev.stowage.IndexSpec;
import dev.stowage.MaintenanceJob;
import dev.stowage.item.AttributeNames;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Scan;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.Position;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Walks a table in scan order and rewrites, through the conditional path, each item whose stored
 * form is out of date: missing or stale index values (backfill) or values under an old encryption
 * key (re-encryption).
 */
final class RewriteJob implements MaintenanceJob {
  private final CoreTable t;
  private final Options options;
  private CursorState state;

  RewriteJob(CoreTable t, CursorState state, Options options) {
    this.t = t;
    this.state = state;
    this.options = options;
  }

  static CursorState startState(CoreTable t, int job) {
    long expiry = t.shared.clock.millis() + Duration.ofDays(7).toMillis();
    return new CursorState(
        t.ref.namespace(),
        t.ref.table(),
        expiry,
        null,
        Scan.all(),
        true,
        null,
        false,
        0,
        0,
        0,
        job,
        null);
  }

  @Override
  public Progress run() {
    long start = System.nanoTime();
    long scanned = state.matched();
    long rewritten = state.deleted();
    long scannedThisRun = 0;
    while (true) {
      Key after = state.anchor() == null ? null : state.anchor().key();
      DriverScan ds = new DriverScan(options.pageSize(), after, true);
      t.shared.metrics.queries.increment();
      QueryResult page = t.shared.retrier.call(() -> t.shared.driver.scan(t.layout, ds));
      for (StoredItem s : page.items()) {
        Key key = t.spec.keySchema().keyOf(s.item());
        scanned++;
        scannedThisRun++;
        if (outdated(s.item())) {
          rewritten++;
          if (!options.dryRun()) {
            t.rewrite(key);
          }
        }
        after = key;
      }
      boolean done = page.items().isEmpty() || !page.more();
      if (after != null) {
        state = state.at(true, new Position(after, null), false);
      }
      state = state.withCounts(scanned, rewritten, 0);
      Progress p = progress(scanned, rewritten, start, done);
      JobLog.progress(
          (state.job() == CursorState.REENCRYPT ? "re-encryption" : "index backfill")
              + (options.dryRun() ? " (dry run)" : ""),
          t.ref,
          done,
          scanned + " scanned, " + rewritten + " rewritten");
      if (options.onProgress() != null) {
        options.onProgress().accept(p);
      }
      if (done) {
        return p;
      }
      pace(start, scannedThisRun);
    }
  }

  private boolean outdated(Item stored) {
    if (state.job() == CursorState.REENCRYPT) {
      for (Map.Entry<String, AttributeValue> e : stored.attributes().entrySet()) {
        // Catches values under an old key, plaintext left from a migration window and
        // ciphertext left in attributes that are no longer encrypted.
        if (!AttributeNames.isReserved(e.getKey())
            && !t.spec.keySchema().isKeyAttribute(e.getKey())
            && t.shared.codecs.needsRewrite(t.spec.policy(e.getKey()), e.getValue())) {
          return true;
        }
      }
      return false;
    }
    // Index attributes are never encoded or moved, so the stored values are the user's values.
    // Native indexes have no synthesized values: the backend indexes their attributes itself.
    Map<String, AttributeValue> user = new LinkedHashMap<>();
    for (IndexSpec index : t.spec.indexes()) {
      if (index.isNative()) {
        continue;
      }
      for (String a : index.attributes()) {
        stored.find(a).ifPresent(v -> user.put(a, v));
      }
    }
    Item expected = t.form.encode(Item.of(user), t.spec.keySchema().keyOf(stored), List.of());
    for (IndexSpec index : t.spec.indexes()) {
      if (index.isNative()) {
        continue;
      }
      IndexLayout l = IndexLayout.of(index);
      for (String synthesized : List.of(l.partitionAttribute(), l.sortAttribute())) {
        if (!Objects.equals(expected.find(synthesized), stored.find(synthesized))) {
          return true;
        }
      }
    }
    return false;
  }

  private void pace(long startNanos, long done) {
    if (options.maxItemsPerSecond() <= 0) {
      return;
    }
    long dueMillis = (long) (done / options.maxItemsPerSecond() * 1000);
    long waitMillis = dueMillis - (System.nanoTime() - startNanos) / 1_000_000;
    if (waitMillis > 0) {
      Retrier.sleep(Duration.ofMillis(waitMillis));
    }
  }

  private Progress progress(long scanned, long rewritten, long startNanos, boolean done) {
    return new Progress(
        scanned,
        rewritten,
        Duration.ofNanos(System.nanoTime() - startNanos),
        done,
        t.shared.sealer.seal(state));
  }
}
