package dev.stowage.typed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.InvalidRequestException;
import dev.stowage.internal.ItemAccess;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.spi.StoredItems;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Typed reads of items a driver builds from arrays: from the second item of a name order on, the
 * item shares its names array with every item of that order, and the typed mapping reads fields
 * from positions it remembers per array instead of by name. Every such read must give exactly what
 * a read by name gives: aliases, absent fields, unmapped attributes, misfits and their messages.
 */
class ShapedReadTest {
  record Inner(String label, long weight) {}

  record Person(
      @PartitionKey String id,
      @SortKey long seq,
      @Attribute(
              value = "fullName",
              aliases = {"name", "nom"})
          String name,
      Optional<String> email,
      int age,
      boolean active,
      Inner inner) {}

  private static final TypedSchema<Person> SCHEMA = TypedSchema.of(Person.class);

  /** The attributes as a driver hands them over: arrays in the (hash) order it iterates them. */
  private static Item stored(Map<String, AttributeValue> attributes) {
    List<String> names = new ArrayList<>(attributes.keySet());
    // Reversed name order, so that the item is sorted rather than taken as it comes.
    names.sort(java.util.Comparator.reverseOrder());
    String[] n = names.toArray(new String[0]);
    AttributeValue[] v = new AttributeValue[n.length];
    for (int i = 0; i < n.length; i++) {
      v[i] = attributes.get(n[i]);
    }
    return StoredItems.of(n, v, n.length);
  }

  /** The same item built by an application (no shared names): read by name. */
  private static Item byName(Map<String, AttributeValue> attributes) {
    Item.Builder b = Item.builder();
    attributes.forEach(b::put);
    return b.build();
  }

  private static Map<String, AttributeValue> attributes(
      String id, long seq, String nameAttribute, Object... more) {
    Map<String, AttributeValue> m = new java.util.LinkedHashMap<>();
    m.put("id", AttributeValue.of(id));
    m.put("seq", AttributeValue.of(seq));
    if (nameAttribute != null) {
      m.put(nameAttribute, AttributeValue.of("Ada " + seq));
    }
    for (int i = 0; i < more.length; i += 2) {
      m.put((String) more[i], (AttributeValue) more[i + 1]);
    }
    return m;
  }

  private static void readsAlike(Map<String, AttributeValue> attributes) {
    Person expected = SCHEMA.fromItem(byName(attributes));
    for (int round = 0; round < 3; round++) {
      Item item = stored(attributes);
      if (round > 0) {
        assertThat(ItemAccess.sharedNames(item)).as("a remembered shape").isNotNull();
      }
      assertThat(SCHEMA.fromItem(item)).isEqualTo(expected);
    }
  }

  @Test
  void everyShapeReadsAsTheSameItemReadByName() {
    AttributeValue inner =
        AttributeValue.map(
            Map.of("label", AttributeValue.of("x"), "weight", AttributeValue.of(12345678901L)));
    List<Map<String, AttributeValue>> shapes =
        List.of(
            attributes(
                "a",
                1,
                "fullName",
                "email",
                AttributeValue.of("a@example.org"),
                "age",
                AttributeValue.of(36),
                "active",
                AttributeValue.of(true),
                "inner",
                inner),
            // the earlier names of a renamed field
            attributes("b", 2, "name", "age", AttributeValue.of(7)),
            attributes("c", 3, "nom", "active", AttributeValue.of(false)),
            // both the name and an alias: the name wins
            attributes("d", 4, "fullName", "name", AttributeValue.of("old")),
            // absent fields, an explicit null, and attributes the class does not map
            attributes("e", 5, null),
            attributes("f", 6, "fullName", "email", AttributeValue.nullValue(), "extra", inner),
            attributes("g", 7, "name", "zzz", AttributeValue.of(1), "aaa", AttributeValue.of(2)));
    // More shapes than a model remembers layouts for, read in turns, twice over.
    for (int pass = 0; pass < 2; pass++) {
      for (Map<String, AttributeValue> shape : shapes) {
        readsAlike(shape);
      }
    }
    Person d = SCHEMA.fromItem(stored(shapes.get(3)));
    assertThat(d.name()).isEqualTo("Ada 4");
    Person b = SCHEMA.fromItem(stored(shapes.get(1)));
    assertThat(b.name()).isEqualTo("Ada 2");
    assertThat(b.email()).isEmpty();
    assertThat(b.inner()).isNull();
    Person a = SCHEMA.fromItem(stored(shapes.get(0)));
    assertThat(a.inner()).isEqualTo(new Inner("x", 12345678901L));
    assertThat(a.email()).contains("a@example.org");
  }

  @Test
  void aMisfitInARememberedShapeNamesTheKeyAndAttribute() {
    Map<String, AttributeValue> misfit =
        attributes("m", 9, "fullName", "age", AttributeValue.of("not a number"));
    stored(misfit);
    Item item = stored(misfit);
    assertThat(ItemAccess.sharedNames(item)).isNotNull();
    assertThatThrownBy(() -> SCHEMA.fromItem(item))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("does not fit class " + Person.class.getName())
        .hasMessageContaining("attribute 'age'")
        .hasMessageContaining("m");
    Map<String, AttributeValue> tooBig =
        attributes("n", 10, "fullName", "age", AttributeValue.of(1L << 40));
    stored(tooBig);
    assertThatThrownBy(() -> SCHEMA.fromItem(stored(tooBig)))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("attribute 'age'");
    Map<String, AttributeValue> nested =
        attributes(
            "o",
            11,
            "fullName",
            "inner",
            AttributeValue.map(Map.of("weight", AttributeValue.of("heavy"))));
    stored(nested);
    assertThatThrownBy(() -> SCHEMA.fromItem(stored(nested)))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("attribute 'inner.weight'");
  }

  /**
   * An immutable class whose builder mixes the styles builders come in: setters that return the
   * builder, one that returns a new builder, a void one, one that returns null, a primitive
   * parameter, and a setter that refuses null (so it must not be called for an absent field).
   */
  public static final class Shaped {
    @PartitionKey private final String id;
    private final long count;
    private final String note;
    private final String tag;
    private final Integer level;

    private Shaped(String id, long count, String note, String tag, Integer level) {
      this.id = id;
      this.count = count;
      this.note = note;
      this.tag = tag;
      this.level = level;
    }

    public static Builder builder() {
      return new Builder(null, 0, null, null, null);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Shaped s
          && id.equals(s.id)
          && count == s.count
          && Objects.equals(note, s.note)
          && Objects.equals(tag, s.tag)
          && Objects.equals(level, s.level);
    }

    @Override
    public int hashCode() {
      return Objects.hash(id, count, note, tag, level);
    }

    @Override
    public String toString() {
      return "Shaped[" + id + ", " + count + ", " + note + ", " + tag + ", " + level + "]";
    }

    public static final class Builder {
      private String id;
      private long count;
      private String note;
      private String tag;
      private Integer level;

      private Builder(String id, long count, String note, String tag, Integer level) {
        this.id = id;
        this.count = count;
        this.note = note;
        this.tag = tag;
        this.level = level;
      }

      public Builder id(String v) {
        this.id = v;
        return this;
      }

      /** Immutable style: a new builder. */
      public Builder count(long v) {
        return new Builder(id, v, note, tag, level);
      }

      /** Refuses null, as many builders do. */
      public void setNote(String v) {
        this.note = Objects.requireNonNull(v, "note");
      }

      /** Returns null: the builder goes on with itself. */
      public Builder tag(String v) {
        this.tag = v;
        return null;
      }

      /** Returns something that is not a builder: ignored. */
      public Object level(Integer v) {
        this.level = v;
        return "ignored";
      }

      public Shaped build() {
        return new Shaped(id, count, note, tag, level);
      }
    }
  }

  @Test
  void everyStyleOfBuilderMethodBuildsTheInstance() {
    TypedSchema<Shaped> schema = TypedSchema.of(Shaped.class);
    Shaped full = new Shaped("s", 42, "a note", "t", 3);
    assertThat(schema.fromItem(schema.toItem(full))).isEqualTo(full);
    Shaped sparse = new Shaped("s", 0, null, null, null);
    assertThat(schema.fromItem(schema.toItem(sparse))).isEqualTo(sparse);
    Map<String, AttributeValue> m =
        Map.of(
            "id", AttributeValue.of("r"),
            "count", AttributeValue.of(5),
            "level", AttributeValue.of(9));
    stored(m);
    assertThat(schema.fromItem(stored(m))).isEqualTo(new Shaped("r", 5, null, null, 9));
    assertThatThrownBy(
            () -> schema.fromItem(Item.builder().put("id", "x").put("count", "many").build()))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("attribute 'count'");
  }
}
