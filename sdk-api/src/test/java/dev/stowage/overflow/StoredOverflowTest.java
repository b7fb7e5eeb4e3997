package dev.stowage.overflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.IntegrityException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.TableRef;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StoredOverflowTest {
  private static final DriverLimits SMALL = TestLimits.limits(4096, 4096, 100, 2048);

  private final MemoryBlobStore source = new MemoryBlobStore();
  private final MemoryBlobStore target = new MemoryBlobStore();

  private Item big() {
    return Fixtures.item(
        "p1",
        Map.of(
            "payload", AttributeValue.of(Fixtures.randomBytes(20_000, 7)),
            "note", AttributeValue.of("kept inline")));
  }

  @Test
  void prepareMovesTheLargestAttributesAndRestorePutsThemBack() {
    Item whole = big();
    StoredOverflow.Prepared p =
        StoredOverflow.of(source).prepare(Fixtures.TABLE, Fixtures.SPEC, SMALL, whole);
    assertThat(p.blobKey()).startsWith(OverflowSweeper.prefixOf(Fixtures.TABLE));
    assertThat(StoredOverflow.hasOverflow(p.item())).isTrue();
    assertThat(p.item().has("payload")).isFalse();
    assertThat(StoredOverflow.of(source).restore(Fixtures.TABLE, p.item())).isEqualTo(whole);

    Item small = Fixtures.item("p2", Map.of("note", AttributeValue.of("small")));
    StoredOverflow.Prepared unchanged =
        StoredOverflow.of(source).prepare(Fixtures.TABLE, Fixtures.SPEC, SMALL, small);
    assertThat(unchanged.blobKey()).isNull();
    assertThat(unchanged.item()).isSameAs(small);
    assertThat(StoredOverflow.of(source).restore(Fixtures.TABLE, small)).isSameAs(small);
  }

  @Test
  void aMissingBlobIsAnIntegrityErrorNamingIt() {
    StoredOverflow.Prepared p =
        StoredOverflow.of(source).prepare(Fixtures.TABLE, Fixtures.SPEC, SMALL, big());
    source.delete(p.blobKey());
    assertThatThrownBy(() -> StoredOverflow.of(source).restore(Fixtures.TABLE, p.item()))
        .isInstanceOf(IntegrityException.class)
        .hasMessageContaining(p.blobKey())
        .hasMessageContaining("missing");
    assertThat(
            StoredOverflow.of(source)
                .copyBlob(Fixtures.TABLE, p.item(), target, new TableRef("next", "orders")))
        .isEmpty();
  }

  @Test
  void copyBlobRenamesTheCopyUnderTheTargetPrefixAndRewritesOnlyThePointersKey() {
    Item whole = big();
    StoredOverflow.Prepared p =
        StoredOverflow.of(source).prepare(Fixtures.TABLE, Fixtures.SPEC, SMALL, whole);
    TableRef next = new TableRef("next", "orders");

    Optional<StoredOverflow.Copy> copy =
        StoredOverflow.of(source).copyBlob(Fixtures.TABLE, p.item(), target, next);

    assertThat(copy).isPresent();
    String copied = OverflowSweeper.referencedBlob(copy.get().item()).orElseThrow();
    assertThat(copied)
        .isEqualTo(
            OverflowSweeper.prefixOf(next)
                + p.blobKey().substring(OverflowSweeper.prefixOf(Fixtures.TABLE).length()));
    assertThat(copy.get().bytes()).isEqualTo(source.get(p.blobKey()).orElseThrow().length);
    assertThat(target.get(copied)).isPresent();
    assertThat(StoredOverflow.of(target).restore(next, copy.get().item())).isEqualTo(whole);
    // the same prefix: the blob keeps its key and the item is unchanged
    MemoryBlobStore other = new MemoryBlobStore();
    StoredOverflow.Copy same =
        StoredOverflow.of(source).copyBlob(Fixtures.TABLE, p.item(), other, Fixtures.TABLE).get();
    assertThat(same.item()).isSameAs(p.item());
    assertThat(other.get(p.blobKey())).isPresent();
  }

  @Test
  void prepareRefusesAnItemThatStillHasAPointer() {
    StoredOverflow.Prepared p =
        StoredOverflow.of(source).prepare(Fixtures.TABLE, Fixtures.SPEC, SMALL, big());
    assertThatThrownBy(
            () -> StoredOverflow.of(source).prepare(Fixtures.TABLE, Fixtures.SPEC, SMALL, p.item()))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
