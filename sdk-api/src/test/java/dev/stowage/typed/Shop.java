package dev.stowage.typed;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The classes the typed-table tests store. */
final class Shop {
  private Shop() {}

  enum Status {
    OPEN,
    SHIPPED,
    CANCELLED
  }

  record Line(String sku, int quantity, BigDecimal price) {}

  record Card(String number, String holder) {}

  @StowageTable("orders")
  record Order(
      @PartitionKey String tenant,
      @SortKey Instant placedAt,
      @Indexed(name = "byStatus") Status status,
      @Indexed(name = "byStatus", sort = true) Instant due,
      @Compressed String notes,
      @Encrypted Card card,
      @Version long version,
      List<Line> lines,
      Set<String> tags,
      Optional<String> coupon) {

    static Order of(String tenant, Instant placedAt, Status status) {
      return new Order(
          tenant,
          placedAt,
          status,
          placedAt.plusSeconds(86_400),
          "leave at the door ".repeat(20),
          new Card("4111111111111111", "Ada"),
          0,
          List.of(new Line("pen", 2, new BigDecimal("1.25"))),
          Set.of("gift"),
          Optional.empty());
    }

    Order withStatus(Status s) {
      return new Order(tenant, placedAt, s, due, notes, card, version, lines, tags, coupon);
    }
  }
}
