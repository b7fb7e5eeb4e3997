package dev.stowage.internal;

import dev.stowage.ConditionFailedException;
import dev.stowage.ConflictException;
import dev.stowage.StowageException;
import dev.stowage.UnavailableException;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.WriteOptions;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.StoredItem;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One table's compare-and-set: the portable read-check-write loop behind conditional puts and
 * deletes, versions, idempotent writes, updates the backend cannot apply natively, and the rewrites
 * of maintenance jobs, with the settling of writes whose response was lost. Thread-safe (each call
 * keeps its state on its own stack).
 */
final class CompareAndSet {
  /** Compare-and-set attempts before giving up with a {@link ConflictException}. */
  private static final int MAX_CAS_ATTEMPTS = 500;

  private final CoreTable t;

  CompareAndSet(CoreTable table) {
    this.t = table;
  }

  /** Decides the next user item from the current one (null: absent); null result deletes. */
  interface Change {
    Item next(Item current);
  }

  /** Runs the loop for a caller that needs no report of what happened. */
  void run(Key key, WriteOptions options, Change change) {
    run(key, options, change, new Outcome());
  }

  /** What a compare-and-set loop did, for callers that report it. */
  static final class Outcome {
    /** The item as the write left it (or found it, when the request id was recognised). */
    Item item;

    /** False when the request id was recognised and nothing was written. */
    boolean applied = true;

    /** The request id the item stopped remembering to make room for this write's, or null. */
    String forgotten;
  }

  /**
   * The portable read-check-write loop behind conditions, versions, idempotency and updates: read
   * the item with its token, decide, write with the token as expectation, repeat on a race.
   *
   * <p>Every version it writes carries a fresh write id ({@link StoredForm#WRITE_ID}). A write
   * whose response is lost is not resent blindly (its own landed attempt would make the resend fail
   * its expectation, or apply it twice): the loop reads the item again and settles the outcome —
   * its write id is there (it landed: done), the item is as it was (it did not land: decide again),
   * or another writer changed it (unknown: reported as such, unless a request id or a plain rewrite
   * makes deciding again safe). A blob written for an attempt whose outcome was ever open is never
   * deleted here, since a delayed request may still land; the sweeper reclaims it if unreferenced.
   *
   * @param outcome receives what happened: the current item when the request id was already
   *     applied, or when a write whose response was lost turns out to have landed
   */
  void run(Key key, WriteOptions options, Change change, Outcome outcome) {
    String requestId = options.requestId();
    boolean safeToRedecide = requestId != null || change == REWRITE;
    Set<String> ours = new HashSet<>();
    LostWrite lost = null;
    int lostResponses = 0;
    String missingBlobToken = null;
    int blobMisses = 0;
    // A put that failed its condition, until the next read settles it: a client below the driver
    // that resent the request on its own (an SDK's retry after a lost response) reports the
    // condition failing on the first attempt's effect, so the write may have landed after all.
    Unsettled unsettled = null;
    for (int attempt = 1; ; attempt++) {
      Optional<StoredItem> stored;
      try {
        stored = t.driverGet(key, true);
      } catch (StowageException e) {
        if (lost == null) {
          throw e;
        }
        throw t.outcomeUnknown(key, "it could not be read back", e);
      }
      if (stored.isPresent() && ours.contains(StoredForm.writeId(stored.get().item()))) {
        // A write of this call landed (its response was lost, or it arrived late).
        if (unsettled != null) {
          settle(unsettled, StoredForm.writeId(stored.get().item()));
        }
        landed(lost, stored.get(), key, outcome);
        return;
      }
      if (unsettled != null) {
        // Not ours: its condition did fail, and it can no longer land (the version it expected is
        // gone), so its blob is unused.
        t.overflowWrites.abandon(unsettled.prepared());
        unsettled = null;
      }
      if (lost != null) {
        boolean unchanged =
            lost.replaced() == null
                ? stored.isEmpty()
                : stored.isPresent() && stored.get().token().equals(lost.replaced().token());
        if (lost.delete() && stored.isEmpty()) {
          landed(lost, null, key, outcome);
          return;
        }
        if (!unchanged && !safeToRedecide) {
          throw t.outcomeUnknown(key, "another writer changed the item since", lost.failure());
        }
        if (lostResponses >= t.shared.retrier.policy().maxAttempts()) {
          throw lost.failure();
        }
        lost = null;
      }
      Item current;
      try {
        current = stored.map(s -> t.decodeFull(s, key)).orElse(null);
      } catch (OverflowHandler.BlobMissingException e) {
        String token = stored.get().token();
        if (token.equals(missingBlobToken)) {
          throw t.missingBlob(key, e);
        }
        missingBlobToken = token;
        if (++blobMisses > 10) {
          throw new ConflictException("item " + key + " keeps changing while being read", e);
        }
        backoff(attempt);
        continue;
      }
      List<String> ids = StoredForm.requestIds(stored.map(StoredItem::item).orElse(null));
      if (requestId != null && ids.contains(requestId)) {
        outcome.item = current;
        outcome.applied = false;
        return;
      }
      if (options.condition() != null && !ConditionEvaluator.test(options.condition(), current)) {
        throw new ConditionFailedException(
            "condition failed for "
                + key
                + " in table '"
                + t.ref
                + "': "
                + ConditionText.of(options.condition()));
      }
      Item next = change.next(current);
      Expectation expect =
          stored.<Expectation>map(s -> Expectation.token(s.token())).orElse(Expectation.ABSENT);
      StoredItem replaced = stored.orElse(null);
      try {
        if (next == null) {
          if (stored.isEmpty()) {
            return;
          }
          t.shared.metrics.writes.increment();
          t.retrier.callUnlessAmbiguous(() -> t.shared.driver.delete(t.layout, key, expect, false));
        } else {
          List<String> remembered = StoredForm.remember(ids, requestId, t.spec.idempotencyWindow());
          outcome.forgotten = StoredForm.forgotten(ids, remembered);
          String writeId = StoredForm.newWriteId();
          ours.add(writeId);
          // A rewrite writes back what is stored, so an indexed value no index can hold (another
          // tool wrote it) leaves the item out of that index rather than failing.
          OverflowHandler.Prepared prepared =
              t.overflowWrites.prepare(
                  t.form.encode(next, key, remembered, writeId, change != REWRITE));
          try {
            t.shared.metrics.writes.increment();
            t.retrier.callUnlessAmbiguous(
                () -> t.shared.driver.put(t.layout, prepared.item(), expect, false));
          } catch (ConditionFailedException e) {
            // Settled by the next read, which finds it landed or not (see unsettled).
            unsettled = new Unsettled(writeId, prepared, replaced);
            throw e;
          } catch (StowageException e) {
            // Certainly not written (a lost response is an AmbiguousWrite and keeps the blob).
            t.overflowWrites.abandonIfDefinite(prepared, e);
            throw e;
          }
        }
      } catch (Retrier.AmbiguousWrite e) {
        lost = new LostWrite(next == null, replaced, e.failure());
        lostResponses++;
        Retrier.sleep(t.shared.retrier.policy().delayBefore(lostResponses, null));
        continue;
      } catch (ConditionFailedException race) {
        // Someone wrote between our read and our write: decide again on the new state.
        t.shared.metrics.casRetries.increment();
        if (attempt >= MAX_CAS_ATTEMPTS) {
          throw new ConflictException(
              "gave up on "
                  + key
                  + " in table '"
                  + t.ref
                  + "' after "
                  + attempt
                  + " concurrent modifications",
              race);
        }
        backoff(attempt);
        continue;
      }
      stored.ifPresent(s -> t.overflowWrites.release(s.item()));
      if (outcome.forgotten != null) {
        t.shared.metrics.requestIdsForgotten.increment();
      }
      return;
    }
  }

  /**
   * The change of {@link CoreTable#rewrite}: the item as it is; deciding it again on a changed item
   * is always safe.
   */
  static final Change REWRITE = current -> current;

  /**
   * A compare-and-set write whose response was lost.
   *
   * @param delete whether it deleted the item
   * @param replaced the stored version it expected to replace, or null if it expected none
   * @param failure how the response was lost
   */
  private record LostWrite(boolean delete, StoredItem replaced, UnavailableException failure) {}

  /**
   * A put of {@link #run} that failed its condition, with the blob it wrote and the version it
   * expected to replace, until the next read tells whether it landed anyway.
   */
  private record Unsettled(
      String writeId, OverflowHandler.Prepared prepared, StoredItem replaced) {}

  /**
   * Settles {@code this} put once a read found the write of this call with {@code landedWriteId}
   * stored: if it is this put, it landed after all and the version it replaced loses its blob;
   * otherwise this put's blob is unused.
   */
  private void settle(Unsettled u, String landedWriteId) {
    if (u.writeId().equals(landedWriteId)) {
      if (u.replaced() != null) {
        t.overflowWrites.release(u.replaced().item());
      }
    } else {
      t.overflowWrites.abandon(u.prepared());
    }
  }

  /** Finishes a compare-and-set whose write landed although its response was lost. */
  private void landed(LostWrite lost, StoredItem now, Key key, Outcome outcome) {
    if (lost != null && lost.replaced() != null) {
      t.overflowWrites.release(lost.replaced().item());
    }
    outcome.item = now == null ? null : t.decodeFull(now, key);
  }

  private static void backoff(int attempt) {
    int cap = Math.min(50, 1 << Math.min(attempt, 6));
    Retrier.sleep(Duration.ofMillis(ThreadLocalRandom.current().nextInt(cap + 1)));
  }
}
