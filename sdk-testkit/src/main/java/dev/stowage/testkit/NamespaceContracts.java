package dev.stowage.testkit;

import static dev.stowage.testkit.Helpers.item;
import static dev.stowage.testkit.Helpers.key;
import static dev.stowage.testkit.Helpers.pnSpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.crypto.tink.Aead;
import dev.stowage.InvalidCursorException;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.item.Item;
import dev.stowage.query.Query;
import dev.stowage.query.ReadOptions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Namespaces isolate tables, items, queries, scans and cursors of the same table name. */
abstract class NamespaceContracts extends Contract {

  @Test
  void theSameTableInTwoNamespacesIsIsolated() {
    Aead key = CursorContracts.sharedCursorKey();
    String nsA = kit().freshNamespace();
    String nsB = kit().freshNamespace();
    Stowage a = kit().storeBuilder(nsA).cursorAead(key).build();
    Stowage b = a.namespace(nsB);
    assertThat(a.namespace()).isEqualTo(nsA);
    assertThat(b.namespace()).isEqualTo(nsB);
    Table ta = table(a, pnSpec("shared"));
    Table tb = table(b, pnSpec("shared"));
    List<Item> inA = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      inA.add(item("p", i, "ns", "a"));
    }
    ta.batchPut(inA);
    tb.put(item("p", 0, "ns", "b"));

    assertThat(ta.get(key("p", 0), ReadOptions.CONSISTENT)).contains(item("p", 0, "ns", "a"));
    assertThat(tb.get(key("p", 0), ReadOptions.CONSISTENT)).contains(item("p", 0, "ns", "b"));
    assertThat(tb.get(key("p", 1), ReadOptions.CONSISTENT)).isEmpty();
    assertThat(tb.batchGet(List.of(key("p", 1), key("p", 2)))).isEmpty();
    assertThat(tb.queryAll(Query.partition("p").build())).containsExactly(item("p", 0, "ns", "b"));
    assertThat(ta.queryAll(Query.partition("p").build())).containsExactlyElementsOf(inA);
    assertThat(Helpers.scanAll(tb)).containsExactly(item("p", 0, "ns", "b"));
    assertThat(Helpers.scanAll(ta)).hasSize(25);

    String cursorA = ta.query(Query.partition("p").limit(5).build()).after().orElseThrow();
    InvalidCursorException e =
        catchThrowableOfType(InvalidCursorException.class, () -> tb.page(cursorA));
    assertThat(e).isNotNull();
    assertThat(e.reason()).isEqualTo(InvalidCursorException.Reason.WRONG_NAMESPACE);

    assertThat(tb.delete(key("p", 1))).isFalse();
    assertThat(ta.get(key("p", 1), ReadOptions.CONSISTENT)).isPresent();
    b.dropTable("shared");
    assertThat(ta.queryAll(Query.partition("p").build())).hasSize(25);
    Table again = table(b, pnSpec("shared"));
    assertThat(Helpers.scanAll(again)).as("a dropped table comes back empty").isEmpty();
  }

  @Test
  void aNamespaceViewSharesTheBackend() {
    String ns = kit().freshNamespace();
    Stowage direct = kit().storeBuilder(ns).build();
    Stowage viaView = store.namespace(ns);
    Table t1 = table(direct, pnSpec("viewed"));
    t1.put(item("v", 1));
    Table t2 = viaView.ensureTable(pnSpec("viewed"));
    assertThat(t2.get(key("v", 1), ReadOptions.CONSISTENT)).contains(item("v", 1));
    assertThat(store.ensureTable(pnSpec("viewed")).get(key("v", 1), ReadOptions.CONSISTENT))
        .as("the test's own namespace does not see it")
        .isEmpty();
    store.dropTable("viewed");
  }
}
