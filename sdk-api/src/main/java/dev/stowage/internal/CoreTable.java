package dev.stowage.internal;

import dev.stowage.ConditionFailedException;
import dev.stowage.ConflictException;
import dev.stowage.DeleteJob;
import dev.stowage.InvalidRequestException;
import dev.stowage.ItemTooLargeException;
import dev.stowage.MaintenanceJob;
import dev.stowage.StowageException;
import dev.stowage.Table;
import dev.stowage.TableSpec;
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
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * The core's implementation of {@link Table}: single-item operations; paging and batches delegate.
 */
final class CoreTable implements Table {
  /** Compare-and-set attempts before giving up with a {@link ConflictException}. */
  private static final int MAX_CAS_ATTEMPTS = 500;

  final StowageCore.Shared shared;
  final TableRef ref;
  final TableSpec spec;
  final TableLayout layout;
  final StoredForm form;
  final KeyRules keyRules;

  CoreTable(StowageCore.Shared shared, TableRef ref, TableSpec spec, TableLayout layout) {
    this.shared = shared;
    this.ref = ref;
    this.spec = spec;
    this.layout = layout;
    this.form = new StoredForm(spec, shared.codecs, shared.driver.limits());
    this.keyRules = new KeyRules(spec.keySchema(), shared.driver.limits());
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
    for (int attempt = 0; ; attempt++) {
      Optional<StoredItem> stored = driverGet(key, options.consistentRead());
      if (stored.isEmpty()) {
        return Optional.empty();
      }
      try {
        Item restored = shared.overflow.restore(ref, stored.get().item(), needed);
        return Optional.of(project(form.decode(restored, key, needed), needed));
      } catch (OverflowHandler.BlobMissingException e) {
        // A concurrent overwrite replaced the item and released its blob: read again.
        if (attempt >= 10) {
          throw new ConflictException("item " + key + " keeps changing while being read", e);
        }
      }
    }
  }

  Optional<StoredItem> driverGet(Key key, boolean consistent) {
    shared.metrics.reads.increment();
    return shared.retrier.call(() -> shared.driver.get(layout, key, consistent));
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
    cas(
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
              throw new ConditionFailedException(
                  "version check failed for "
                      + key
                      + " in table '"
                      + ref
                      + "': expected "
                      + (expected == null ? "no item" : expected.toPlainString())
                      + ", stored "
                      + (stored == null ? "none" : stored.toPlainString()));
            }
            BigDecimal nextVersion =
                (expected == null ? BigDecimal.ZERO : expected).add(BigDecimal.ONE);
            next = item.toBuilder().put(v, AttributeValue.of(nextVersion)).build();
          }
          return next;
        });
  }

  private static BigDecimal number(AttributeValue v) {
    return v instanceof NumberValue n ? n.value() : null;
  }

  private void validateVersionType(Item item) {
    spec.versionAttribute()
        .flatMap(item::find)
        .ifPresent(
            v -> {
              if (!(v instanceof NumberValue)) {
                throw new InvalidRequestException(
                    "version attribute '" + spec.versionAttribute().get() + "' must be a number");
              }
            });
  }

  private void writeUnconditionally(Item item, Key key) {
    Item stored = form.encode(item, key, List.of());
    OverflowHandler.Prepared prepared = prepare(stored);
    WriteResult result;
    try {
      shared.metrics.writes.increment();
      result =
          shared.retrier.call(
              () -> shared.driver.put(layout, prepared.item(), Expectation.ANY, mayHaveBlobs()));
    } catch (StowageException e) {
      abandonIfDefinite(prepared, e);
      throw e;
    }
    result.previous().ifPresent(p -> release(p.item()));
  }

  /**
   * Whether replaced items may point to blobs, so a put must return them. Without a blob store
   * nothing overflows, and asking for the previous item would only cost (DynamoDB ALL_OLD).
   */
  private boolean mayHaveBlobs() {
    return shared.blobStore != null;
  }

  /**
   * Deletes the blob of an item that was replaced or deleted. The write has already committed, so a
   * blob store failure here must not fail it: the blob is left for the sweeper and counted.
   */
  void release(Item replaced) {
    try {
      shared.overflow.release(ref, replaced);
    } catch (StowageException e) {
      shared.metrics.releaseFailures.increment();
    }
  }

  OverflowHandler.Prepared prepare(Item stored) {
    return shared.overflow.prepare(ref, spec, shared.driver.limits(), stored);
  }

  /**
   * Deletes a freshly written blob after a write failed for sure. After an ambiguous failure the
   * item may have been written, so the blob stays (the sweeper reclaims it if unreferenced).
   */
  void abandonIfDefinite(OverflowHandler.Prepared prepared, StowageException e) {
    if (prepared.blobKey() != null && definite(e)) {
      shared.overflow.abandon(ref, prepared);
    }
  }

  static boolean definite(StowageException e) {
    return !(e instanceof dev.stowage.UnavailableException);
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
      WriteResult r =
          shared.retrier.call(() -> shared.driver.delete(layout, key, Expectation.ANY, true));
      r.previous().ifPresent(p -> release(p.item()));
      return r.previous().isPresent();
    }
    boolean[] deleted = {false};
    cas(
        key,
        options,
        current -> {
          deleted[0] = current != null;
          return null;
        });
    return deleted[0];
  }

  @Override
  public Item update(Key key, Update update, WriteOptions options) {
    keyRules.validate(key);
    UpdateApplier.validate(update, spec.keySchema());
    ConditionEvaluator.validate(options.condition(), spec, "a condition");
    if (nativeEligible(update, options)) {
      Condition guard = Condition.notExists(OverflowHandler.POINTER_ATTRIBUTE);
      Condition condition = options.condition() == null ? guard : options.condition().and(guard);
      try {
        shared.metrics.writes.increment();
        StoredItem s =
            shared.retrier.call(() -> shared.driver.updateNative(layout, key, update, condition));
        return form.decode(s.item(), key, null);
      } catch (ConditionFailedException | ItemTooLargeException e) {
        // The guard, a genuine condition failure or the size limit: the portable path decides.
      }
    }
    Item[] result = {null};
    cas(
        key,
        options,
        current -> {
          Item base = current != null ? current : keyRules.keyItem(key);
          Item next = UpdateApplier.apply(base, update);
          if (spec.versionAttribute().isPresent()) {
            next = bumpVersion(key, update, current, next);
          }
          result[0] = next;
          return next;
        },
        applied -> result[0] = applied);
    return result[0];
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
          throw new ConditionFailedException(
              "version check failed for " + key + " in table '" + ref + "'");
        }
        return next.toBuilder().put(v, AttributeValue.of(expected.add(BigDecimal.ONE))).build();
      }
    }
    BigDecimal base = stored == null ? BigDecimal.ZERO : stored;
    return next.toBuilder().put(v, AttributeValue.of(base.add(BigDecimal.ONE))).build();
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
    cas(key, WriteOptions.NONE, current -> current);
  }

  /** Decides the next user item from the current one (null: absent); null result deletes. */
  interface Change {
    Item next(Item current);
  }

  private void cas(Key key, WriteOptions options, Change change) {
    cas(key, options, change, applied -> {});
  }

  /**
   * The portable read-check-write loop behind conditions, versions, idempotency and updates: read
   * the item with its token, decide, write with the token as expectation, repeat on a race.
   *
   * @param alreadyApplied receives the current item when the request id was already applied
   */
  private void cas(
      Key key,
      WriteOptions options,
      Change change,
      java.util.function.Consumer<Item> alreadyApplied) {
    String requestId = options.requestId();
    for (int attempt = 1; ; attempt++) {
      Optional<StoredItem> stored = driverGet(key, true);
      Item current;
      try {
        current = stored.map(s -> decodeFull(s, key)).orElse(null);
      } catch (OverflowHandler.BlobMissingException e) {
        backoff(attempt);
        continue;
      }
      List<String> ids = StoredForm.requestIds(stored.map(StoredItem::item).orElse(null));
      if (requestId != null && ids.contains(requestId)) {
        alreadyApplied.accept(current);
        return;
      }
      if (options.condition() != null && !ConditionEvaluator.test(options.condition(), current)) {
        throw new ConditionFailedException(
            "condition failed for " + key + " in table '" + ref + "': " + options.condition());
      }
      Item next = change.next(current);
      Expectation expect =
          stored.<Expectation>map(s -> Expectation.token(s.token())).orElse(Expectation.ABSENT);
      try {
        if (next == null) {
          if (stored.isEmpty()) {
            return;
          }
          shared.metrics.writes.increment();
          shared.retrier.call(() -> shared.driver.delete(layout, key, expect, false));
        } else {
          List<String> remembered = StoredForm.remember(ids, requestId, spec.idempotencyWindow());
          OverflowHandler.Prepared prepared = prepare(form.encode(next, key, remembered));
          try {
            shared.metrics.writes.increment();
            shared.retrier.call(() -> shared.driver.put(layout, prepared.item(), expect, false));
          } catch (StowageException e) {
            abandonIfDefinite(prepared, e);
            throw e;
          }
        }
      } catch (ConditionFailedException race) {
        // Someone wrote between our read and our write: decide again on the new state.
        shared.metrics.casRetries.increment();
        if (attempt >= MAX_CAS_ATTEMPTS) {
          throw new ConflictException(
              "gave up on "
                  + key
                  + " in table '"
                  + ref
                  + "' after "
                  + attempt
                  + " concurrent modifications",
              race);
        }
        backoff(attempt);
        continue;
      }
      stored.ifPresent(s -> release(s.item()));
      return;
    }
  }

  private static void backoff(int attempt) {
    int cap = Math.min(50, 1 << Math.min(attempt, 6));
    Retrier.sleep(Duration.ofMillis(ThreadLocalRandom.current().nextInt(cap + 1)));
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
  public MaintenanceJob reencrypt(MaintenanceJob.Options options) {
    return new RewriteJob(this, RewriteJob.startState(this, CursorState.REENCRYPT), options);
  }

  @Override
  public MaintenanceJob resumeMaintenance(String resumeToken, MaintenanceJob.Options options) {
    CursorState state =
        shared.sealer.open(
            resumeToken, ref.namespace(), ref.table(), CursorState.BACKFILL, CursorState.REENCRYPT);
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

  /** Every stored item of the table, read lazily in scan order. */
  Stream<Item> storedItems() {
    java.util.Iterator<Item> it =
        new java.util.Iterator<>() {
          private List<StoredItem> page = List.of();
          private int i;
          private Key after;
          private boolean more = true;

          @Override
          public boolean hasNext() {
            while (i >= page.size() && more) {
              var scan = new dev.stowage.spi.DriverScan(500, after, true);
              var r = shared.retrier.call(() -> shared.driver.scan(layout, scan));
              page = r.items();
              i = 0;
              more = r.more() && !page.isEmpty();
              if (!page.isEmpty()) {
                after = spec.keySchema().keyOf(page.get(page.size() - 1).item());
              }
            }
            return i < page.size();
          }

          @Override
          public Item next() {
            if (!hasNext()) {
              throw new java.util.NoSuchElementException();
            }
            return page.get(i++).item();
          }
        };
    return java.util.stream.StreamSupport.stream(
        java.util.Spliterators.spliteratorUnknownSize(it, java.util.Spliterator.ORDERED), false);
  }

  void requireCapability(Capability c, String why) {
    if (!shared.driver.capabilities().contains(c)) {
      throw new UnsupportedCapabilityException(c.name(), shared.driver.name() + " " + why);
    }
  }
}
