package dev.stowage.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.ItemTooLargeException;
import dev.stowage.MaintenanceJob;
import dev.stowage.item.AttributeNames;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Scan;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.Position;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import java.time.Duration;
import java.util.Map;

/**
 * Walks a table in scan order and rewrites, through the conditional path, each item whose stored
 * form is out of date: missing or stale index values (backfill and verification, the same walk
 * reported under two names) or values under an old encryption key (re-encryption). Rewrites leave
 * an item out of an index whose values it cannot hold ({@link StoredForm#encode(Item, Key,
 * java.util.List, String, boolean)}), and an item that cannot be written back at all is skipped and
 * logged. The resume token carries the counts.
 */
final class RewriteJob extends JobLoop<MaintenanceJob.Progress> implements MaintenanceJob {
  private final CoreTable t;
  private final Options options;
  private CursorState state;
  private long scanned;
  private long rewritten;
  private long stale;
  private long missing;
  private long skipped;
  private long scannedThisRun;

  RewriteJob(CoreTable t, CursorState state, Options options) {
    super(options.maxItemsPerSecond(), options.onProgress());
    this.t = t;
    this.state = state;
    this.options = options;
    this.scanned = state.matched();
    this.rewritten = state.deleted();
    CursorState.Findings f = state.findings();
    this.stale = f.stale();
    this.missing = f.missing();
    this.skipped = f.skipped();
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
  protected boolean step() {
    Key after = state.anchor() == null ? null : state.anchor().key();
    DriverScan ds = new DriverScan(options.pageSize(), after, true);
    t.shared.metrics.queries.increment();
    QueryResult page = t.retrier.call(() -> t.shared.driver.scan(t.layout, ds));
    for (StoredItem s : page.items()) {
      Key key = t.spec.keySchema().keyOf(s.item());
      scanned++;
      scannedThisRun++;
      after = key;
      if (state.job() == CursorState.REENCRYPT) {
        if (!underOldKeys(s.item())) {
          continue;
        }
      } else {
        StoredForm.IndexState found = t.form.indexState(s.item(), key);
        if (found == StoredForm.IndexState.CURRENT) {
          continue;
        }
        if (found == StoredForm.IndexState.STALE) {
          stale++;
        } else {
          missing++;
        }
      }
      if (options.dryRun() || rewrite(key)) {
        rewritten++;
      } else {
        skipped++;
      }
    }
    if (after != null) {
      state = state.at(true, new Position(after, null), false);
    }
    state =
        state
            .withCounts(scanned, rewritten, 0)
            .withFindings(new CursorState.Findings(stale, missing, skipped));
    return page.items().isEmpty() || !page.more();
  }

  @Override
  protected long unitsThisRun() {
    return scannedThisRun;
  }

  @Override
  protected Object target() {
    return t.ref;
  }

  @Override
  protected String counts(Progress p) {
    String counts = p.scanned() + " scanned, " + p.rewritten() + " rewritten";
    if (state.job() != CursorState.REENCRYPT) {
      counts +=
          " (" + p.stale() + " stale, " + p.missing() + " missing, " + p.skipped() + " skipped)";
    } else if (p.skipped() > 0) {
      counts += ", " + p.skipped() + " skipped";
    }
    return counts;
  }

  @Override
  protected String name() {
    String job =
        switch (state.job()) {
          case CursorState.REENCRYPT -> "re-encryption";
          case CursorState.VERIFY -> "index verification";
          default -> "index backfill";
        };
    return options.dryRun() ? job + " (dry run)" : job;
  }

  /**
   * Rewrites an item through the conditional path; false if its current form cannot be written back
   * (a value over the backend's limits or against Stowage's rules, typically written by another
   * tool), which is logged and skipped so that one such item does not stop the walk.
   */
  private boolean rewrite(Key key) {
    try {
      t.rewrite(key);
      return true;
    } catch (InvalidRequestException | ItemTooLargeException e) {
      JobLog.skipped(name(), t.ref, key, e.getMessage());
      return false;
    }
  }

  private boolean underOldKeys(Item stored) {
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

  @Override
  protected Progress progress(Duration elapsed, boolean done) {
    return new Progress(
        scanned, rewritten, stale, missing, skipped, elapsed, done, t.shared.sealer.seal(state));
  }
}
