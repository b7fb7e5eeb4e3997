package dev.stowage.testkit;

import static dev.stowage.testkit.Helpers.item;
import static dev.stowage.testkit.Helpers.key;
import static dev.stowage.testkit.Helpers.pnSpec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.Table;
import dev.stowage.query.Condition;
import dev.stowage.query.ReadOptions;
import dev.stowage.spi.Capability;
import org.junit.jupiter.api.Test;

/**
 * Transactions: all or nothing. Backends without them report the contracts as aborted with their
 * reason (see {@link Contract#whereSupported}).
 */
abstract class TransactionContracts extends Contract {

  @Test
  void aTransactionInOnePartitionCommitsEverything() {
    Table t = table(pnSpec("txone"));
    t.put(item("acct", 3, "balance", "10"));
    t.put(item("acct", 4, "state", "old"));
    whereSupported(
        Capability.TRANSACTIONS,
        () ->
            store
                .transaction()
                .put(t, item("acct", 1, "v", "a"), Condition.notExists("p"))
                .put(t, item("acct", 2, "v", "b"), Condition.notExists("p"))
                .check(t, key("acct", 3), Condition.eq("balance", "10"))
                .delete(t, key("acct", 4), Condition.exists("state"))
                .commit());
    assertThat(t.get(key("acct", 1), ReadOptions.CONSISTENT)).contains(item("acct", 1, "v", "a"));
    assertThat(t.get(key("acct", 2), ReadOptions.CONSISTENT)).contains(item("acct", 2, "v", "b"));
    assertThat(t.get(key("acct", 3), ReadOptions.CONSISTENT))
        .contains(item("acct", 3, "balance", "10"));
    assertThat(t.get(key("acct", 4), ReadOptions.CONSISTENT)).isEmpty();
  }

  @Test
  void aFailingCheckInOnePartitionWritesNothing() {
    Table t = table(pnSpec("txonefail"));
    t.put(item("acct", 3, "balance", "5"));
    t.put(item("acct", 4, "state", "old"));
    whereSupported(
        Capability.TRANSACTIONS,
        () ->
            expectConditionFailed(
                () ->
                    store
                        .transaction()
                        .put(t, item("acct", 1, "v", "a"), Condition.notExists("p"))
                        .delete(t, key("acct", 4), Condition.exists("state"))
                        .check(t, key("acct", 3), Condition.eq("balance", "10"))
                        .commit()));
    assertThat(t.get(key("acct", 1), ReadOptions.CONSISTENT)).isEmpty();
    assertThat(t.get(key("acct", 4), ReadOptions.CONSISTENT))
        .contains(item("acct", 4, "state", "old"));
    assertThat(t.get(key("acct", 3), ReadOptions.CONSISTENT))
        .contains(item("acct", 3, "balance", "5"));
  }

  @Test
  void aTransactionAcrossPartitionsAndTablesIsAtomic() {
    Table orders = table(pnSpec("txorders"));
    Table stock = table(pnSpec("txstock"));
    stock.put(item("widget", 1, "available", "yes"));
    whereSupported(
        Capability.CROSS_PARTITION_TRANSACTIONS,
        () -> {
          store
              .transaction()
              .put(orders, item("order-1", 1, "item", "widget"), Condition.notExists("p"))
              .put(orders, item("order-2", 1, "item", "widget"), null)
              .put(stock, item("widget", 1, "available", "no"), Condition.eq("available", "yes"))
              .commit();
          expectConditionFailed(
              () ->
                  store
                      .transaction()
                      .put(orders, item("order-3", 1, "item", "widget"), Condition.notExists("p"))
                      .delete(orders, key("order-1", 1), null)
                      .check(stock, key("widget", 1), Condition.eq("available", "yes"))
                      .commit());
        });
    assertThat(orders.get(key("order-1", 1), ReadOptions.CONSISTENT)).isPresent();
    assertThat(orders.get(key("order-2", 1), ReadOptions.CONSISTENT)).isPresent();
    assertThat(orders.get(key("order-3", 1), ReadOptions.CONSISTENT)).isEmpty();
    assertThat(stock.get(key("widget", 1), ReadOptions.CONSISTENT))
        .contains(item("widget", 1, "available", "no"));
  }
}
