package dev.stowage.internal;

import dev.stowage.ConditionFailedException;
import dev.stowage.ConflictException;
import dev.stowage.DeleteJob;
import dev.stowage.IntegrityException;
import dev.stowage.InvalidRequestException;
import dev.stowage.ItemTooLargeException;
import dev.stowage.MaintenanceJob;
import dev.stowage.StowageException;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.UnavailableException;
import dev.stowage.UnsupportedCapabilityException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.NumberValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Condition;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.ReadOptions;
import dev.stowage.query.Scan;
import dev.stowage.query.Update;
import dev.stowage.query.UpdateResult;
import dev.stowage.query.WriteOptions;
import dev.stowage.spi.Capability;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.WriteResult;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The core's implementation of {@link Table}: single-item operations; paging and batches delegate.
 */
final class CoreTable implements Table, UpdateWithoutReadBack {
  final StowageCore.Shared shared;
  final TableRef ref;
  final TableSpec spec;
  final TableLayout layout;
  final StoredForm form;
  final KeyRules keyRules;
  final OverflowWrites overflowWrites;
  final Metrics.TableCounters counters;

  /** The store's retry policy for this table's requests: counts and paces them per table. */
  final Retrier retrier;

  private final CompareAndSet cas = new CompareAndSet(this);

  CoreTable(StowageCore.Shared shared, TableRef ref, TableSpec spec, TableLayout layout) {
    this.shared = shared;
    this.ref = ref;
    this.spec = spec;
    this.layout = layout;
    this.form =
        new StoredForm(
            spec, shared.codecs, shared.driver.limits(layout), shared.metrics.table(ref));
    this.keyRules = new KeyRules(spec.keySchema(), shared.driver.limits(layout));
    this.overflowWrites = new OverflowWrites(this);
    this.counters = shared.metrics.table(ref);
    this.retrier = shared.retrier.forTable(counters);
  }

  @Override
  public TableSpec spec() {
    return spec;
  }

  @Override
  public String namespace() {
    return ref.namespace();
  }

  // ---- reads -------------------------------------------------------------------------------

  @Override
  public Optional<Item> get(Key key, ReadOptions options) {
    keyRules.validate(key);
    Set<String> needed = options.projection();
    String missingBlobToken = null;
    boolean consistent = options.consistentRead();
    for (int attempt = 0; ; attempt++) {
      Optional<StoredItem> stored = driverGet(key, consistent);
      if (stored.isEmpty()) {
        return Optional.empty();
      }
      try {
        Item restored = shared.overflow.restore(ref, stored.get().item(), needed);
        return Optional.of(project(form.decode(restored, key, needed), needed));
      } catch (OverflowHandler.BlobMissingException e) {
        // A concurrent overwrite replaced the item and released its blob: read again. The same
        // version twice (read consistently) means the blob is really gone, which is no race.
        String token = stored.get().token();
        if (token.equals(missingBlobToken)) {
          throw missingBlob(key, e);
        }
        if (attempt >= 10) {
          throw new ConflictException("item " + key + " keeps changing while being read", e);
        }
        missingBlobToken = consistent ? token : null;
        consistent = true;
      }
    }
  }

  Optional<StoredItem> driverGet(Key key, boolean consistent) {
    shared.metrics.reads.increment();
    return retrier.call(() -> shared.driver.get(layout, key, consistent));
  }

  Item project(Item item, Set<String> projection) {
    if (projection == null) {
      return item;
    }
    Set<String> keep = new HashSet<>(projection);
    keep.add(spec.keySchema().partitionName());
    spec.keySchema().sortName().ifPresent(keep::add);
    return item.project(keep);
  }

  /**
   * Restores the stored items of a page or batch, re-reading an item whose blob vanished (a
   * concurrent overwrite or delete released it). An item deleted meanwhile comes back as null; an
   * item whose blob is missing while the item stays as it was fails with an {@link
   * IntegrityException} naming the blob.
   */
  List<Item> restoreAll(List<Item> stored, Set<String> needed) {
    if (noPointers(stored)) {
      // Nothing overflowed (the common case): every handler gives such items back as they are.
      return stored;
    }
    List<Item> items = new java.util.ArrayList<>(stored);
    for (int attempt = 0; ; attempt++) {
      List<Item> present = items.stream().filter(java.util.Objects::nonNull).toList();
      List<Item> restored;
      try {
        restored = shared.overflow.restoreAll(ref, present, needed);
      } catch (OverflowHandler.BlobMissingException e) {
        if (attempt >= 10) {
          throw new ConflictException("items keep changing while being read", e);
        }
        for (int i = 0; i < items.size(); i++) {
          Item item = items.get(i);
          if (item == null
              || !e.blobKey()
                  .equals(dev.stowage.overflow.OverflowSweeper.referencedBlob(item).orElse(null))) {
            continue;
          }
          Key key = spec.keySchema().keyOf(item);
          Item now = driverGet(key, true).map(StoredItem::item).orElse(null);
          if (now != null
              && e.blobKey()
                  .equals(dev.stowage.overflow.OverflowSweeper.referencedBlob(now).orElse(null))) {
            throw missingBlob(key, e);
          }
          items.set(i, now);
        }
        continue;
      }
      List<Item> out = new java.util.ArrayList<>(items.size());
      int next = 0;
      for (Item item : items) {
        out.add(item == null ? null : restored.get(next++));
      }
      return out;
    }
  }

  private static boolean noPointers(List<Item> stored) {
    for (int i = 0; i < stored.size(); i++) {
      Item item = stored.get(i);
      if (item != null && item.has(OverflowHandler.POINTER_ATTRIBUTE)) {
        return false;
      }
    }
    return true;
  }

  /** The whole user item of a stored item (blob fetched, everything decoded). */
  Item decodeFull(StoredItem stored, Key key) {
    return form.decode(shared.overflow.restore(ref, stored.item(), null), key, null);
  }

  // ---- single-item writes ------------------------------------------------------------------

  @Override
  public void put(Item item, WriteOptions options) {
    Key key = keyRules.validate(spec.keySchema().keyOf(item));
    ConditionEvaluator.validate(options.condition(), spec, "a condition");
    validateVersionType(item);
    boolean portable =
        options.condition() != null
            || options.requestId() != null
            || spec.versionAttribute().isPresent();
    if (!portable) {
      writeUnconditionally(item, key);
      return;
    }
    cas.run(
        key,
        options,
        current -> {
          Item next = item;
          if (spec.versionAttribute().isPresent()) {
            String v = spec.versionAttribute().get();
            BigDecimal expected = item.find(v).map(x -> ((NumberValue) x).value()).orElse(null);
            BigDecimal stored =
                current == null ? null : current.find(v).map(CoreTable::number).orElse(null);
            boolean matches =
                expected == null || expected.signum() == 0
                    ? current == null || stored == null
                    : stored != null && stored.compareTo(expected) == 0;
            if (!matches) {
              throw versionCheckFailed(key, expected, stored);
            }
            BigDecimal nextVersion =
                (expected == null ? BigDecimal.ZERO : expected).add(BigDecimal.ONE);
            next = item.toBuilder().put(v, AttributeValue.of(nextVersion)).build();
          }
          return next;
        });
  }

  /**
   * A version check that failed: what the write expected (null or 0: no item) and what is stored.
   */
  private ConditionFailedException versionCheckFailed(
      Key key, BigDecimal expected, BigDecimal stored) {
    return new ConditionFailedException(
        "version check failed for "
            + key
            + " in table '"
            + ref
            + "': expected "
            + (expected == null || expected.signum() == 0 ? "no item" : expected.toPlainString())
            + ", stored "
            + (stored == null ? "none" : stored.toPlainString()));
  }

  private static BigDecimal number(AttributeValue v) {
    return v instanceof NumberValue n ? n.value() : null;
  }

  private void validateVersionType(Item item) {
    String version = spec.versionAttribute().orElse(null);
    AttributeValue v = version == null ? null : item.attributes().get(version);
    if (v != null && !(v instanceof NumberValue)) {
      throw new InvalidRequestException("version attribute '" + version + "' must be a number");
    }
  }

  private void writeUnconditionally(Item item, Key key) {
    Item stored = form.encode(item, key, List.of());
    OverflowHandler.Prepared prepared = overflowWrites.prepare(stored);
    UnconditionalPut put = new UnconditionalPut(prepared, overflowWrites.replacedMayHaveBlobs());
    WriteResult result;
    try {
      shared.metrics.writes.increment();
      result = retrier.call(put);
    } catch (StowageException e) {
      if (!put.lostResponse) {
        overflowWrites.abandonIfDefinite(prepared, e);
      }
      throw e;
    }
    // (The version a landed attempt whose response was lost replaced is left to the sweeper.)
    overflowWrites.releaseReplaced(result.previous(), prepared);
  }

  /** The attempts of an unconditional put, noting whether one may have landed unanswered. */
  private final class UnconditionalPut implements java.util.function.Supplier<WriteResult> {
    private final OverflowHandler.Prepared prepared;
    private final boolean returnReplaced;
    boolean lostResponse;

    UnconditionalPut(OverflowHandler.Prepared prepared, boolean returnReplaced) {
      this.prepared = prepared;
      this.returnReplaced = returnReplaced;
    }

    @Override
    public WriteResult get() {
      try {
        return shared.driver.put(layout, prepared.item(), Expectation.ANY, returnReplaced);
      } catch (UnavailableException e) {
        lostResponse = true;
        throw e;
      }
    }
  }

  @Override
  public boolean putIfAbsent(Item item) {
    try {
      put(item, WriteOptions.when(Condition.notExists(spec.keySchema().partitionName())));
      return true;
    } catch (ConditionFailedException e) {
      return false;
    }
  }

  @Override
  public boolean delete(Key key, WriteOptions options) {
    keyRules.validate(key);
    ConditionEvaluator.validate(options.condition(), spec, "a condition");
    if (options.condition() == null) {
      shared.metrics.writes.increment();
      WriteResult r = retrier.call(() -> shared.driver.delete(layout, key, Expectation.ANY, true));
      r.previous().ifPresent(p -> overflowWrites.release(p.item()));
      return r.previous().isPresent();
    }
    boolean[] deleted = {false};
    cas.run(
        key,
        options,
        current -> {
          deleted[0] = current != null;
          return null;
        });
    return deleted[0];
  }

  @Override
  public UpdateResult updateWithResult(Key key, Update update, WriteOptions options) {
    return update(key, update, options, true);
  }

  @Override
  public Item updateWithoutReadBack(Key key, Update update, WriteOptions options) {
    UpdateResult r = update(key, update, options, false);
    return r == null ? null : r.item();
  }

  /** The update; null if {@code readBack} is false and it was applied natively. */
  private UpdateResult update(Key key, Update update, WriteOptions options, boolean readBack) {
    keyRules.validate(key);
    UpdateApplier.validate(update, spec.keySchema());
    ConditionEvaluator.validate(options.condition(), spec, "a condition");
    if (nativeEligible(update, options)) {
      Condition guard = Condition.notExists(OverflowHandler.POINTER_ATTRIBUTE);
      Condition condition = options.condition() == null ? guard : options.condition().and(guard);
      // Resending a native update after a lost response is safe only if applying it twice equals
      // applying it once, and no condition of the caller's could then fail on its own effect.
      boolean repeatable = options.condition() == null && repeatable(update);
      try {
        shared.metrics.writes.increment();
        Supplier<StoredItem> call =
            readBack
                ? () -> shared.driver.updateNative(layout, key, update, condition)
                : () -> {
                  shared.driver.updateNativeWithoutItem(layout, key, update, condition);
                  return null;
                };
        StoredItem s = repeatable ? retrier.call(call) : retrier.callUnlessAmbiguous(call);
        return readBack ? new UpdateResult(form.decode(s.item(), key, null), true, null) : null;
      } catch (Retrier.AmbiguousWrite e) {
        throw outcomeUnknown(
            key, "an increment, append or conditional update is not resent", e.failure());
      } catch (ConditionFailedException | ItemTooLargeException e) {
        // The guard, a genuine condition failure or the size limit: the portable path decides.
      }
    }
    CompareAndSet.Outcome outcome = new CompareAndSet.Outcome();
    cas.run(
        key,
        options,
        current -> {
          Item base = current != null ? current : keyRules.keyItem(key);
          Item next = UpdateApplier.apply(base, update);
          if (spec.versionAttribute().isPresent()) {
            next = bumpVersion(key, update, current, next);
          }
          outcome.item = next;
          return next;
        },
        outcome);
    return new UpdateResult(outcome.item, outcome.applied, outcome.forgotten);
  }

  private Item bumpVersion(Key key, Update update, Item current, Item next) {
    String v = spec.versionAttribute().get();
    BigDecimal stored =
        current == null ? null : current.find(v).map(CoreTable::number).orElse(null);
    for (Update.Action a : update.actions()) {
      if (a.attribute().equals(v) && a instanceof Update.Set s) {
        BigDecimal expected = number(s.value());
        if (expected == null) {
          throw new InvalidRequestException("version attribute '" + v + "' must be a number");
        }
        boolean ok =
            expected.signum() == 0
                ? stored == null
                : stored != null && stored.compareTo(expected) == 0;
        if (!ok) {
          throw versionCheckFailed(key, expected, stored);
        }
        return next.toBuilder().put(v, AttributeValue.of(expected.add(BigDecimal.ONE))).build();
      }
    }
    BigDecimal base = stored == null ? BigDecimal.ZERO : stored;
    return next.toBuilder().put(v, AttributeValue.of(base.add(BigDecimal.ONE))).build();
  }

  /** Whether applying {@code update} twice leaves the same item as applying it once. */
  private static boolean repeatable(Update update) {
    for (Update.Action a : update.actions()) {
      if (a instanceof Update.Increment || a instanceof Update.AppendToList) {
        return false;
      }
    }
    return true;
  }

  private boolean nativeEligible(Update update, WriteOptions options) {
    if (!shared.driver.capabilities().contains(Capability.NATIVE_UPDATES)
        || options.requestId() != null
        || spec.versionAttribute().isPresent()) {
      return false;
    }
    Set<String> touched = new HashSet<>(update.attributes());
    if (options.condition() != null) {
      touched.addAll(ConditionEvaluator.attributes(options.condition()));
    }
    for (String a : touched) {
      if (spec.policy(a).encoded() || spec.isIndexed(a)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Rewrites an item as it is, under the current spec and keys (fresh index values, current primary
   * encryption key), unless it changed or vanished meanwhile.
   */
  void rewrite(Key key) {
    cas.run(key, WriteOptions.NONE, CompareAndSet.REWRITE);
  }

  UnavailableException outcomeUnknown(Key key, String why, Throwable cause) {
    return UnavailableException.writeOutcomeUnknown(
        "the write of "
            + key
            + " in table '"
            + ref
            + "' lost its response and "
            + why
            + ", so it may or may not have been applied; pass WriteOptions.idempotent(requestId)"
            + " to make such writes safe to repeat",
        cause);
  }

  /** A stored item whose overflow blob is gone while the item itself did not change. */
  IntegrityException missingBlob(Key key, OverflowHandler.BlobMissingException e) {
    return new IntegrityException(
        "item "
            + key
            + " in table '"
            + ref
            + "' points to a missing overflow blob ("
            + e.getMessage()
            + "): check that the blob store and its prefix are the ones the item was written with",
        e);
  }

  // ---- batches, queries, jobs --------------------------------------------------------------

  @Override
  public Map<Key, Item> batchGet(Collection<Key> keys, ReadOptions options) {
    return new BatchOps(this).get(keys, options);
  }

  @Override
  public void batchPut(List<Item> items) {
    new BatchOps(this).put(items);
  }

  @Override
  public void batchDelete(Collection<Key> keys) {
    new BatchOps(this).delete(keys);
  }

  @Override
  public Page query(Query query) {
    return new Pager(this).first(query);
  }

  @Override
  public Page page(String cursor) {
    return new Pager(this).page(cursor);
  }

  @Override
  public Stream<Item> queryAll(Query query) {
    return new Pager(this).all(query);
  }

  @Override
  public Page scan(Scan scan) {
    return new Pager(this).firstScan(scan);
  }

  @Override
  public DeleteJob deleteWhere(Query query, DeleteJob.Options options) {
    return new DeleteJobRunner(
        this, new Pager(this).startState(query).forJob(CursorState.DELETE), options);
  }

  @Override
  public DeleteJob resumeDelete(String resumeToken, DeleteJob.Options options) {
    CursorState state =
        shared.sealer.open(resumeToken, ref.namespace(), ref.table(), CursorState.DELETE);
    if (state.query() == null) {
      throw new dev.stowage.InvalidCursorException(
          dev.stowage.InvalidCursorException.Reason.MALFORMED, "token is not a delete-job token");
    }
    Pager.requireSameIndex(this, state);
    return new DeleteJobRunner(this, state, options);
  }

  @Override
  public MaintenanceJob backfillIndexes(MaintenanceJob.Options options) {
    return new RewriteJob(this, RewriteJob.startState(this, CursorState.BACKFILL), options);
  }

  @Override
  public MaintenanceJob verifyIndexes(MaintenanceJob.Options options) {
    return new RewriteJob(this, RewriteJob.startState(this, CursorState.VERIFY), options);
  }

  @Override
  public MaintenanceJob reencrypt(MaintenanceJob.Options options) {
    return new RewriteJob(this, RewriteJob.startState(this, CursorState.REENCRYPT), options);
  }

  @Override
  public MaintenanceJob resumeMaintenance(String resumeToken, MaintenanceJob.Options options) {
    CursorState state =
        shared.sealer.open(
            resumeToken,
            ref.namespace(),
            ref.table(),
            CursorState.BACKFILL,
            CursorState.REENCRYPT,
            CursorState.VERIFY);
    if (state.scan() == null) {
      throw new dev.stowage.InvalidCursorException(
          dev.stowage.InvalidCursorException.Reason.MALFORMED,
          "token is not a maintenance-job token");
    }
    return new RewriteJob(this, state, options);
  }

  @Override
  public dev.stowage.overflow.OverflowSweeper.Report sweepOverflow(
      Duration gracePeriod, boolean dryRun) {
    if (shared.blobStore == null) {
      throw new InvalidRequestException(
          "this store has no blob store, so it has no overflow blobs");
    }
    return dev.stowage.overflow.OverflowSweeper.builder(shared.blobStore, ref)
        .liveItems(this::storedItems)
        .gracePeriod(gracePeriod)
        .dryRun(dryRun)
        .clock(shared.clock)
        .retryPolicy(shared.retrier.policy())
        .build()
        .run();
  }

  /** Readers of the stored items a sweep checks, where the driver scans in segments. */
  private static final int SWEEP_READERS = 4;

  /**
   * Every stored item of the table, read lazily: in {@value #SWEEP_READERS} parallel segments where
   * the driver scans in segments, else in scan order.
   */
  Stream<Item> storedItems() {
    return SegmentedReader.items(shared.driver, layout, retrier, SWEEP_READERS)
        .map(StoredItem::item);
  }

  void requireCapability(Capability c, String why) {
    if (!shared.driver.capabilities().contains(c)) {
      throw new UnsupportedCapabilityException(c.name(), shared.driver.name() + " " + why);
    }
  }
}
