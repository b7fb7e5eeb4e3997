package dev.stowage;

import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.RequestListener.Outcome;
import dev.stowage.RequestListener.Request;
import dev.stowage.RequestListener.Target;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.overflow.MemoryBlobStore;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class RequestListenerTest {
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private final Stowage store =
      Stowage.builder(MemoryDriver.create())
          .blobStore(new MemoryBlobStore())
          .namespace("prod")
          .requestListener(requests::add)
          .build();
  private final Table users =
      store.ensureTable(TableSpec.builder("users", KeySchema.of("id", STRING)).build());

  private List<Request> of(Target target, String operation) {
    return requests.stream()
        .filter(r -> r.target() == target && r.operation().equals(operation))
        .toList();
  }

  @Test
  void everyDriverRequestIsReportedWithItsTableBytesAndOutcome() {
    users.put(Item.builder().put("id", "u1").put("name", "Ada").build());
    users.get(Key.of("u1"));
    TableLayout layout =
        new TableLayout(new TableRef("prod", "users"), KeySchema.of("id", STRING), List.of());
    assertThatThrownBy(
            () ->
                store
                    .driver()
                    .put(
                        layout,
                        StoredItems.of(Map.of("id", AttributeValue.of("u1"))),
                        Expectation.ABSENT,
                        false))
        .isInstanceOf(ConditionFailedException.class);

    assertThat(of(Target.TABLE, "ensureTable")).hasSize(1);
    Request put = of(Target.TABLE, "put").get(0);
    assertThat(put.backend()).isEqualTo("memory");
    assertThat(put.namespace()).isEqualTo("prod");
    assertThat(put.table()).isEqualTo("users");
    assertThat(put.bytesWritten()).isPositive();
    assertThat(put.outcome()).isEqualTo(Outcome.OK);
    assertThat(put.duration()).isPositive();
    Request get = of(Target.TABLE, "get").get(0);
    assertThat(get.bytesRead()).isPositive();
    assertThat(get.bytesWritten()).isZero();
    assertThat(of(Target.TABLE, "put"))
        .extracting(Request::outcome)
        .contains(Outcome.CONDITION_FAILED);
  }

  @Test
  void overflowBlobsAreReportedWithTheTableTheyBelongTo() {
    byte[] big = new byte[600_000];
    new java.util.Random(1).nextBytes(big);
    users.put(Item.builder().put("id", "big").put("doc", Bytes.wrap(big)).build());
    assertThat(users.get(Key.of("big")).orElseThrow().getBinary("doc").size())
        .isEqualTo(big.length);

    Request put = of(Target.BLOB, "put").get(0);
    assertThat(put.table()).isEqualTo("users");
    assertThat(put.namespace()).isEqualTo("prod");
    assertThat(put.bytesWritten()).isGreaterThan(big.length);
    Request read = of(Target.BLOB, "open").get(0);
    assertThat(read.bytesRead()).isEqualTo(put.bytesWritten());
    assertThat(read.table()).isEqualTo("users");
  }

  @Test
  void aFailingListenerNeverFailsTheWrite() {
    Stowage s =
        Stowage.builder(MemoryDriver.create())
            .requestListener(
                r -> {
                  throw new IllegalStateException("broken metrics");
                })
            .build();
    Table t = s.ensureTable(TableSpec.builder("things", KeySchema.of("id", STRING)).build());
    t.put(Item.builder().put("id", "a").build());
    assertThat(t.get(Key.of("a"))).isPresent();
  }
}
