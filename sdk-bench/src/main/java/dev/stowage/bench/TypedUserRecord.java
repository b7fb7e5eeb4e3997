package dev.stowage.bench;

import dev.stowage.item.Item;
import dev.stowage.typed.PartitionKey;
import dev.stowage.typed.SortKey;
import dev.stowage.typed.StowageTable;

/**
 * The small benchmark item ({@link SmallItems}) as a record mapped by Stowage's typed items, with
 * the hand-written mapping to and from an {@link Item} that an application would write without them
 * (the anchor of the typed benchmarks).
 */
@StowageTable("bench_typed")
public record TypedUserRecord(
    @PartitionKey String pk,
    @SortKey long sk,
    String name,
    String email,
    int age,
    boolean active,
    long score,
    String city) {

  /** The same values as {@link SmallItems#stowage}. */
  public static TypedUserRecord of(String pk, long sk) {
    return fromItem(SmallItems.stowage(pk, sk));
  }

  /**
   * The record the typed put benchmarks write, built directly (no {@link Item} on the way): the
   * values of {@link SmallItems#stowage} but for the city, always "London".
   */
  public static TypedUserRecord direct(String pk, long sk) {
    return new TypedUserRecord(
        pk,
        sk,
        "Ada Lovelace the " + sk + "th",
        pk.replace('#', '.') + "." + sk + "@example.org",
        (int) (20 + sk % 50),
        sk % 3 != 0,
        1000 + sk * 37,
        "London");
  }

  /** Hand-written mapping to an item. */
  public Item toItem() {
    return Item.builder()
        .put(SmallItems.PK, pk)
        .put(SmallItems.SK, sk)
        .put("name", name)
        .put("email", email)
        .put("age", age)
        .put("active", active)
        .put("score", score)
        .put("city", city)
        .build();
  }

  /** Hand-written mapping from an item. */
  public static TypedUserRecord fromItem(Item i) {
    return new TypedUserRecord(
        i.getString(SmallItems.PK),
        i.getLong(SmallItems.SK),
        i.getString("name"),
        i.getString("email"),
        (int) i.getLong("age"),
        i.getBoolean("active"),
        i.getLong("score"),
        i.getString("city"));
  }
}
