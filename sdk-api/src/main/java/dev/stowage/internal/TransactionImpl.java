package dev.stowage.internal;

import dev.stowage.ConditionFailedException;
import dev.stowage.ConflictException;
import dev.stowage.InvalidRequestException;
import dev.stowage.Stowage;
import dev.stowage.StowageException;
import dev.stowage.Table;
import dev.stowage.UnavailableException;
import dev.stowage.UnsupportedCapabilityException;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Condition;
import dev.stowage.spi.Capability;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TxOp;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A multi-item transaction: conditions are evaluated on a consistent read of every item, then the
 * driver writes everything atomically with each item's token as expectation, so a concurrent change
 * makes the whole transaction re-check. Not thread-safe (one per caller).
 */
final class TransactionImpl implements Stowage.Transaction {
  private static final int MAX_ATTEMPTS = 50;

  private enum Kind {
    PUT,
    DELETE,
    CHECK
  }

  private record Op(Kind kind, CoreTable table, Key key, Item item, Condition condition) {}

  private record Pending(CoreTable table, OverflowHandler.Prepared prepared) {
    void abandon() {
      table.overflowWrites.abandon(prepared);
    }
  }

  private final StowageCore.Shared shared;
  private final List<Op> ops = new ArrayList<>();

  TransactionImpl(StowageCore.Shared shared) {
    this.shared = shared;
  }

  private CoreTable core(Table table) {
    if (!(table instanceof CoreTable ct) || ct.shared != shared) {
      throw new InvalidRequestException("a transaction can only use tables of its own store");
    }
    return ct;
  }

  @Override
  public Stowage.Transaction put(Table table, Item item, Condition condition) {
    CoreTable t = core(table);
    Key key = t.keyRules.validate(t.spec.keySchema().keyOf(item));
    ConditionEvaluator.validate(condition, t.spec, "a condition");
    ops.add(new Op(Kind.PUT, t, key, item, condition));
    return this;
  }

  @Override
  public Stowage.Transaction delete(Table table, Key key, Condition condition) {
    CoreTable t = core(table);
    ConditionEvaluator.validate(condition, t.spec, "a condition");
    ops.add(new Op(Kind.DELETE, t, t.keyRules.validate(key), null, condition));
    return this;
  }

  @Override
  public Stowage.Transaction check(Table table, Key key, Condition condition) {
    CoreTable t = core(table);
    if (condition == null) {
      throw new InvalidRequestException("a check needs a condition");
    }
    ConditionEvaluator.validate(condition, t.spec, "a condition");
    ops.add(new Op(Kind.CHECK, t, t.keyRules.validate(key), null, condition));
    return this;
  }

  @Override
  public List<String> describe() {
    return ops.stream().map(o -> o.kind() + " " + o.table().ref + " " + o.key()).toList();
  }

  @Override
  public void commit() {
    if (ops.isEmpty()) {
      return;
    }
    validateShape();
    // Each attempt's puts carry a fresh write id; after a lost response the next read settles
    // whether the (atomic) transaction landed, as CoreTable's compare-and-set loop does.
    Set<String> ours = new HashSet<>();
    List<StoredItem> lostCurrents = null;
    UnavailableException lostFailure = null;
    int lostResponses = 0;
    // An attempt that failed its condition, with its blobs and the versions it expected, until
    // the next read settles it: a client below the driver that resent the request on its own (an
    // SDK's retry after a lost response) reports the condition failing on the first attempt's
    // effect, so the transaction may have landed after all.
    List<Pending> unsettled = null;
    List<StoredItem> unsettledCurrents = null;
    for (int attempt = 1; ; attempt++) {
      List<StoredItem> currents = new ArrayList<>();
      for (Op op : ops) {
        try {
          currents.add(op.table().driverGet(op.key(), true).orElse(null));
        } catch (StowageException e) {
          if (lostCurrents == null) {
            throw e;
          }
          throw outcomeUnknown("it could not be read back", e);
        }
      }
      if (lostCurrents != null || !ours.isEmpty()) {
        if (landed(currents, ours, lostCurrents != null)) {
          if (lostCurrents != null) {
            releaseReplaced(lostCurrents);
          } else if (unsettledCurrents != null) {
            releaseReplaced(unsettledCurrents);
          }
          return;
        }
      }
      if (unsettled != null) {
        // It did not land, and cannot any more (the versions it expected are gone).
        unsettled.forEach(Pending::abandon);
        unsettled = null;
        unsettledCurrents = null;
      }
      if (lostCurrents != null) {
        if (!sameVersions(lostCurrents, currents)) {
          throw outcomeUnknown("another writer changed its items since", lostFailure);
        }
        if (lostResponses >= shared.retrier.policy().maxAttempts()) {
          throw lostFailure;
        }
        lostCurrents = null;
      }
      for (int i = 0; i < ops.size(); i++) {
        Op op = ops.get(i);
        StoredItem s = currents.get(i);
        Item decoded = s == null ? null : op.table().decodeFull(s, op.key());
        if (op.condition() != null && !ConditionEvaluator.test(op.condition(), decoded)) {
          throw new ConditionFailedException(
              "transaction condition failed on "
                  + op.key()
                  + " in table '"
                  + op.table().ref
                  + "': "
                  + ConditionText.of(op.condition()));
        }
      }
      String writeId = StoredForm.newWriteId();
      List<TxOp> tx = new ArrayList<>();
      List<Pending> prepared = new ArrayList<>();
      Map<dev.stowage.spi.TableRef, TableLayout> layouts = new LinkedHashMap<>();
      try {
        for (int i = 0; i < ops.size(); i++) {
          Op op = ops.get(i);
          StoredItem cur = currents.get(i);
          layouts.put(op.table().ref, op.table().layout);
          Expectation expect = cur == null ? Expectation.ABSENT : Expectation.token(cur.token());
          switch (op.kind()) {
            case PUT -> {
              List<String> ids = StoredForm.requestIds(cur == null ? null : cur.item());
              OverflowHandler.Prepared p =
                  op.table()
                      .overflowWrites
                      .prepare(op.table().form.encode(op.item(), op.key(), ids, writeId));
              prepared.add(new Pending(op.table(), p));
              tx.add(new TxOp.Put(op.table().ref, op.key(), p.item(), expect));
            }
            case DELETE -> {
              // Deleting an absent item without a condition asserts nothing worth a round trip;
              // some backends (Azure) cannot assert absence inside a transaction at all.
              Expectation e = cur == null && op.condition() == null ? Expectation.ANY : expect;
              tx.add(new TxOp.Delete(op.table().ref, op.key(), e));
            }
            default -> tx.add(new TxOp.Check(op.table().ref, op.key(), expect));
          }
        }
        shared.metrics.writes.increment();
        ours.add(writeId);
        shared.retrier.callUnlessAmbiguous(
            () -> {
              shared.driver.transactWrite(List.copyOf(layouts.values()), tx);
              return null;
            });
      } catch (Retrier.AmbiguousWrite lost) {
        // The blobs stay: the transaction may have landed. The next read settles it.
        lostCurrents = currents;
        lostFailure = lost.failure();
        lostResponses++;
        Retrier.sleep(shared.retrier.policy().delayBefore(lostResponses, null));
        continue;
      } catch (ConditionFailedException race) {
        // Settled by the next read, which finds it landed or not (see unsettled).
        unsettled = prepared;
        unsettledCurrents = currents;
        if (attempt >= MAX_ATTEMPTS) {
          throw new ConflictException("transaction kept racing with concurrent writes", race);
        }
        continue;
      } catch (StowageException e) {
        if (OverflowWrites.definite(e)) {
          prepared.forEach(Pending::abandon);
        }
        throw e;
      }
      releaseReplaced(currents);
      return;
    }
  }

  /** Releases the blobs of the versions a committed transaction replaced or deleted. */
  private void releaseReplaced(List<StoredItem> replaced) {
    for (int i = 0; i < ops.size(); i++) {
      StoredItem cur = replaced.get(i);
      if (cur != null && ops.get(i).kind() != Kind.CHECK) {
        ops.get(i).table().overflowWrites.release(cur.item());
      }
    }
  }

  /**
   * Whether a transaction of this commit landed, judged from the items as they are now: one of its
   * puts is there (transactions are atomic), or, for one without puts whose response was lost,
   * everything it deleted is gone.
   */
  private boolean landed(List<StoredItem> now, Set<String> ours, boolean lostResponse) {
    boolean anyPut = false;
    boolean deletesGone = true;
    for (int i = 0; i < ops.size(); i++) {
      StoredItem s = now.get(i);
      switch (ops.get(i).kind()) {
        case PUT -> {
          anyPut = true;
          if (s != null && ours.contains(StoredForm.writeId(s.item()))) {
            return true;
          }
        }
        case DELETE -> deletesGone &= s == null;
        default -> {}
      }
    }
    return lostResponse && !anyPut && deletesGone;
  }

  private static boolean sameVersions(List<StoredItem> a, List<StoredItem> b) {
    for (int i = 0; i < a.size(); i++) {
      StoredItem x = a.get(i);
      StoredItem y = b.get(i);
      if (x == null ? y != null : y == null || !x.token().equals(y.token())) {
        return false;
      }
    }
    return true;
  }

  private UnavailableException outcomeUnknown(String why, Throwable cause) {
    return UnavailableException.writeOutcomeUnknown(
        "a transaction lost its response and " + why + ", so it may or may not have been applied",
        cause);
  }

  private void validateShape() {
    if (!shared.driver.capabilities().contains(Capability.TRANSACTIONS)) {
      throw new UnsupportedCapabilityException(
          "TRANSACTIONS", shared.driver.name() + " has no multi-item transactions");
    }
    int max = shared.driver.limits().maxTransactionItems();
    if (ops.size() > max) {
      throw new InvalidRequestException(
          "a transaction on "
              + shared.driver.name()
              + " holds at most "
              + max
              + " operations, not "
              + ops.size());
    }
    Set<String> partitions = new HashSet<>();
    Set<Key> seen = new HashSet<>();
    for (Op op : ops) {
      partitions.add(op.table().ref + "|" + op.key().partition());
      if (!seen.add(op.key()) && ops.stream().map(Op::table).distinct().count() == 1) {
        throw new InvalidRequestException("a transaction names " + op.key() + " more than once");
      }
    }
    if (partitions.size() > 1
        && !shared.driver.capabilities().contains(Capability.CROSS_PARTITION_TRANSACTIONS)) {
      throw new UnsupportedCapabilityException(
          "CROSS_PARTITION_TRANSACTIONS",
          shared.driver.name() + " transactions are limited to one partition of one table");
    }
  }
}
