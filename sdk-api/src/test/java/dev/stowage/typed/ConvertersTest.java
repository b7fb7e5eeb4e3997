package dev.stowage.typed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.InvalidRequestException;
import dev.stowage.Stowage;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.memory.MemoryDriver;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Application converters, registered on the schema or named on a field. */
class ConvertersTest {
  private final Stowage store = Stowage.builder(MemoryDriver.create()).build();

  /** An application value type without a built-in mapping. */
  record Money(BigDecimal amount, String currency) {
    @Override
    public String toString() {
      return amount.toPlainString() + " " + currency;
    }
  }

  /** Stores money as "12.50 EUR". */
  static final class MoneyAsText implements AttributeConverter<Money> {
    @Override
    public AttributeValue toAttribute(Money m) {
      return AttributeValue.of(m.toString());
    }

    @Override
    public Money fromAttribute(AttributeValue stored) {
      if (!(stored instanceof AttributeValue.StringValue s) || !s.value().contains(" ")) {
        throw new IllegalArgumentException("not an amount and currency: " + stored);
      }
      String[] parts = s.value().split(" ");
      return new Money(new BigDecimal(parts[0]), parts[1]);
    }

    @Override
    public AttributeType storedType() {
      return AttributeType.STRING;
    }
  }

  /** Stores text upper-cased, for a field-level converter. */
  public static final class Shout implements AttributeConverter<String> {
    @Override
    public AttributeValue toAttribute(String value) {
      return AttributeValue.of(value.toUpperCase(java.util.Locale.ROOT));
    }

    @Override
    public String fromAttribute(AttributeValue stored) {
      return ((AttributeValue.StringValue) stored).value().toLowerCase(java.util.Locale.ROOT);
    }
  }

  @StowageTable("invoices")
  record Invoice(
      @PartitionKey String id,
      @Indexed(name = "byTotal") Money total,
      List<Money> parts,
      @Convert(Shout.class) String note) {}

  @Test
  void registeredConvertersMapFieldsAndElementsAndMayKeyAnIndex() {
    TypedTable<Invoice> invoices =
        store.ensureTable(
            TypedSchema.builder(Invoice.class).converter(Money.class, new MoneyAsText()).build());
    Money m = new Money(new BigDecimal("12.50"), "EUR");
    Invoice i = new Invoice("i1", m, List.of(m, m), "paid");
    invoices.put(i);
    Item raw = invoices.table().get(invoices.key("i1")).orElseThrow();
    assertThat(raw.getString("total")).isEqualTo("12.50 EUR");
    assertThat(raw.getString("note")).isEqualTo("PAID");
    assertThat(invoices.get(invoices.key("i1"))).contains(i);
    assertThat(invoices.queryAll(q -> q.index("byTotal").partition(m)).toList()).containsExactly(i);
  }

  @Test
  void withoutTheConverterTheClassMapsMoneyAsANestedRecordAndCannotIndexIt() {
    assertThatThrownBy(() -> store.ensureTable(Invoice.class))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("field 'total'")
        .hasMessageContaining("MAP");
  }

  @Test
  void aConverterThatRefusesAStoredValueIsNamedWithTheKey() {
    TypedTable<Invoice> invoices =
        store.ensureTable(
            TypedSchema.builder(Invoice.class).converter(Money.class, new MoneyAsText()).build());
    invoices.table().put(Item.builder().put("id", "i2").put("total", "lots").build());
    assertThatThrownBy(() -> invoices.get(invoices.key("i2")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("i2")
        .hasMessageContaining("attribute 'total'")
        .hasMessageContaining("not an amount and currency");
  }
}
