package dev.stowage.typed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.Stowage;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.memory.MemoryDriver;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Ordinary classes with setters, with an all-fields constructor, and immutable ones with builders.
 */
class ClassStylesTest {
  private final Stowage store = Stowage.builder(MemoryDriver.create()).build();

  /** A bean: no-argument constructor, getters and setters. */
  @StowageTable("beans")
  public static class Bean {
    @PartitionKey private String id;
    private int count;
    private boolean active;
    @Ignore private String scratch = "not stored";
    private transient String cache;

    public Bean() {}

    public String getId() {
      return id;
    }

    public void setId(String id) {
      this.id = id;
    }

    public int getCount() {
      return count;
    }

    public void setCount(int count) {
      this.count = count;
    }

    public boolean isActive() {
      return active;
    }

    public void setActive(boolean active) {
      this.active = active;
    }

    public String getScratch() {
      return scratch;
    }

    public void setScratch(String s) {
      this.scratch = s;
    }
  }

  /** Immutable, with a constructor taking every field and plain accessors. */
  @StowageTable("points")
  static final class Point {
    @PartitionKey private final UUID id;
    private final LocalDate day;
    private final Duration took;

    Point(UUID id, LocalDate day, Duration took) {
      this.id = id;
      this.day = day;
      this.took = took;
    }

    UUID id() {
      return id;
    }

    LocalDate day() {
      return day;
    }

    Duration took() {
      return took;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Point p
          && id.equals(p.id)
          && Objects.equals(day, p.day)
          && Objects.equals(took, p.took);
    }

    @Override
    public int hashCode() {
      return id.hashCode();
    }
  }

  /** Immutable, built by a builder (the shape the Enhanced Client calls an immutable class). */
  @StowageTable("accounts")
  static final class Account {
    @PartitionKey private final String id;
    @SortKey private final long seq;
    private final BigDecimal balance;
    private final ByteBuffer avatar;
    private final Map<String, List<String>> labels;

    private Account(Builder b) {
      this.id = b.id;
      this.seq = b.seq;
      this.balance = b.balance;
      this.avatar = b.avatar;
      this.labels = b.labels;
    }

    static Builder builder() {
      return new Builder();
    }

    String id() {
      return id;
    }

    long seq() {
      return seq;
    }

    BigDecimal balance() {
      return balance;
    }

    ByteBuffer avatar() {
      return avatar;
    }

    Map<String, List<String>> labels() {
      return labels;
    }

    static final class Builder {
      private String id;
      private long seq;
      private BigDecimal balance;
      private ByteBuffer avatar;
      private Map<String, List<String>> labels;

      Builder id(String id) {
        this.id = id;
        return this;
      }

      Builder seq(long seq) {
        this.seq = seq;
        return this;
      }

      Builder balance(BigDecimal balance) {
        this.balance = balance;
        return this;
      }

      Builder avatar(ByteBuffer avatar) {
        this.avatar = avatar;
        return this;
      }

      Builder labels(Map<String, List<String>> labels) {
        this.labels = labels;
        return this;
      }

      Account build() {
        return new Account(this);
      }
    }
  }

  @Test
  void aBeanIsReadThroughGettersAndBuiltThroughSetters() {
    TypedTable<Bean> beans = store.ensureTable(Bean.class);
    Bean b = new Bean();
    b.setId("b1");
    b.setCount(7);
    b.setActive(true);
    b.setScratch("changed");
    beans.put(b);
    Item raw = beans.table().get(beans.key("b1")).orElseThrow();
    assertThat(raw.names()).containsExactlyInAnyOrder("id", "count", "active");
    Bean back = beans.get(beans.key("b1")).orElseThrow();
    assertThat(back.getId()).isEqualTo("b1");
    assertThat(back.getCount()).isEqualTo(7);
    assertThat(back.isActive()).isTrue();
    assertThat(back.getScratch()).isEqualTo("not stored");
  }

  @Test
  void anAllFieldsConstructorBuildsAnImmutableClass() {
    TypedTable<Point> points = store.ensureTable(Point.class);
    Point p = new Point(UUID.randomUUID(), LocalDate.of(2026, 2, 28), Duration.ofMillis(1500));
    points.put(p);
    assertThat(points.get(points.key(p.id()))).contains(p);
    Item raw = points.table().get(points.key(p.id())).orElseThrow();
    assertThat(raw.getString("day")).isEqualTo("2026-02-28");
    assertThat(raw.getNumber("took")).isEqualByComparingTo("1.5");
    assertThat(raw.getString("id")).isEqualTo(p.id().toString());
    assertThat(points.schema().spec().keySchema().partitionType()).isEqualTo(AttributeType.STRING);
  }

  @Test
  void aBuilderBuildsAnImmutableClass() {
    TypedTable<Account> accounts = store.ensureTable(Account.class);
    Account a =
        Account.builder()
            .id("a")
            .seq(3)
            .balance(new BigDecimal("10.50"))
            .avatar(ByteBuffer.wrap(new byte[] {1, 2, 3}))
            .labels(Map.of("colours", List.of("red", "blue")))
            .build();
    accounts.put(a);
    Account back = accounts.get(accounts.key("a", 3L)).orElseThrow();
    assertThat(back.seq()).isEqualTo(3);
    assertThat(back.balance()).isEqualByComparingTo("10.5");
    assertThat(back.avatar()).isEqualTo(ByteBuffer.wrap(new byte[] {1, 2, 3}));
    assertThat(back.labels()).isEqualTo(Map.of("colours", List.of("red", "blue")));
    assertThat(accounts.table().get(accounts.key("a", 3L)).orElseThrow().get("avatar"))
        .isEqualTo(AttributeValue.of(new byte[] {1, 2, 3}));
    assertThat(accounts.schema().spec().keySchema().sortType()).contains(AttributeType.NUMBER);
  }
}
