package dev.stowage.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.ConditionFailedException;
import dev.stowage.InvalidRequestException;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Key;
import dev.stowage.spi.Capability;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TxOp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TransactionTest extends DriverTestBase {

  @Test
  void writesAcrossTablesAndPartitionsAtomically() {
    assertThat(driver.capabilities())
        .contains(Capability.TRANSACTIONS, Capability.CROSS_PARTITION_TRANSACTIONS);
    TableLayout a = newTable(null);
    TableLayout b = newTable(AttributeType.NUMBER);
    String tok = driver.put(a, Fixtures.item("x", Map.of()), Expectation.ANY, false).token();
    driver.put(a, Fixtures.item("gone", Map.of()), Expectation.ANY, false);
    Key bKey = Key.of("y", 1);
    driver.transactWrite(
        List.of(a, b),
        List.of(
            new TxOp.Put(a.ref(), Key.of("x"), Fixtures.item("x", Map.of("v", AttributeValue.of(2))), Expectation.token(tok)),
            new TxOp.Put(b.ref(), bKey, Fixtures.item("y", Map.of("sk", AttributeValue.of(1))), Expectation.ABSENT),
            new TxOp.Delete(a.ref(), Key.of("gone"), Expectation.ANY),
            new TxOp.Check(a.ref(), Key.of("other"), Expectation.ABSENT)));
    var x = driver.get(a, Key.of("x"), true).orElseThrow();
    assertThat(x.item().getLong("v")).isEqualTo(2);
    assertThat(x.token()).isNotEqualTo(tok);
    assertThat(driver.get(b, bKey, true)).isPresent();
    assertThat(driver.get(a, Key.of("gone"), true)).isEmpty();
  }

  @Test
  void aFailedExpectationWritesNothing() {
    TableLayout a = newTable(null);
    driver.put(a, Fixtures.item("x", Map.of()), Expectation.ANY, false);
    assertThatThrownBy(
            () ->
                driver.transactWrite(
                    List.of(a),
                    List.of(
                        new TxOp.Put(a.ref(), Key.of("new"), Fixtures.item("new", Map.of()), Expectation.ANY),
                        new TxOp.Check(a.ref(), Key.of("x"), Expectation.token("stale")))))
        .isInstanceOf(ConditionFailedException.class)
        .hasMessageContaining("operation 1");
    assertThat(driver.get(a, Key.of("new"), true)).isEmpty();
  }

  @Test
  void limitsAndDuplicateKeysAreInvalidRequests() {
    TableLayout a = newTable(null);
    List<TxOp> ops = new ArrayList<>();
    for (int i = 0; i < 101; i++) {
      ops.add(new TxOp.Check(a.ref(), Key.of("k" + i), Expectation.ANY));
    }
    assertThatThrownBy(() -> driver.transactWrite(List.of(a), ops))
        .isInstanceOf(InvalidRequestException.class);
    assertThatThrownBy(
            () ->
                driver.transactWrite(
                    List.of(a),
                    List.of(
                        new TxOp.Check(a.ref(), Key.of("k"), Expectation.ANY),
                        new TxOp.Delete(a.ref(), Key.of("k"), Expectation.ANY))))
        .isInstanceOf(InvalidRequestException.class);
    assertThat(driver.limits().maxTransactionItems()).isEqualTo(100);
  }
}
