package dev.stowage.dynamodb.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.item.AttributeValue;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Numbers read from DynamoDB: short integers take a parser of their own and small ones a shared
 * value, and every text must read as exactly the number {@link BigDecimal}'s parser makes of it.
 */
class NumberTranslationTest {
  private static AttributeValue read(String text) {
    return AttributeMapper.fromNative(
        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN(text));
  }

  @Test
  void everyTextReadsAsTheNumberBigDecimalParses() {
    for (String text :
        List.of(
            "0",
            "-0",
            "7",
            "-7",
            "10",
            "-128",
            "-129",
            "1023",
            "1024",
            "1000",
            "-1000",
            "0010",
            "123456789012345678",
            "-123456789012345678",
            "999999999999999999",
            "1234567890123456789",
            "-9223372036854775808",
            "9223372036854775807",
            "99999999999999999999999999999999999999",
            "1.5",
            "-0.25",
            "1E+3",
            "1e3",
            "2.50",
            "1E-130",
            "9.99E+125")) {
      AttributeValue got = read(text);
      assertThat(got).as(text).isEqualTo(AttributeValue.of(new BigDecimal(text)));
      assertThat(((AttributeValue.NumberValue) got).value().compareTo(new BigDecimal(text)))
          .as(text)
          .isZero();
      assertThat(AttributeMapper.parseNumber(text).compareTo(new BigDecimal(text)))
          .as(text)
          .isZero();
    }
  }

  @Test
  void textThatIsNoNumberFailsAsBigDecimalsParserDoes() {
    for (String text : List.of("-", "", "12a", "--1", "1-", " 1")) {
      assertThatThrownBy(() -> read(text)).as(text).isInstanceOf(NumberFormatException.class);
    }
  }

  @Test
  void numbersGoBackToTheirText() {
    for (String text : List.of("0", "7", "-128", "1023", "1024", "123456789012345678")) {
      assertThat(AttributeMapper.toNative(read(text)).n()).isEqualTo(text);
    }
  }
}
