package dev.stowage.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.console.internal.json.ItemJson;
import dev.stowage.console.internal.json.Json;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ItemJsonTest {
  private final Item every =
      Item.builder()
          .put("s", "héllo \"quoted\"\n")
          .put("empty", "")
          .put("n", new BigDecimal("12345678901234567890.123456789"))
          .put("big", new BigDecimal("1E+125"))
          .put("b", new byte[] {0, 1, (byte) 0xFF})
          .put("t", true)
          .put("nil", AttributeValue.nullValue())
          .put("list", AttributeValue.list(AttributeValue.of(1), AttributeValue.of("x")))
          .put("emptyList", AttributeValue.list(List.of()))
          .put(
              "map",
              AttributeValue.map(
                  Map.of("a", AttributeValue.of(1), "nested", AttributeValue.map(Map.of()))))
          .put("tagLike", AttributeValue.map(Map.of("$b", AttributeValue.of("not binary"))))
          .put("ss", AttributeValue.stringSet("b", "a"))
          .put("ns", AttributeValue.numberSet(List.of(BigDecimal.ONE, new BigDecimal("2.5"))))
          .put("bs", AttributeValue.binarySet(List.of(Bytes.of(new byte[] {1}))))
          .build();

  @Test
  void everyTypeRoundTripsExactly() {
    String json = ItemJson.write(every);
    assertThat(ItemJson.parseItem(json)).isEqualTo(every);
    String tagged = Json.write(ItemJson.toJson(every, ItemJson.NumberStyle.TAGGED_STRING));
    assertThat(tagged).contains("{\"$n\":\"12345678901234567890.123456789\"}");
    assertThat(ItemJson.parseItem(tagged)).isEqualTo(every);
  }

  @Test
  void documentedForms() {
    String json = ItemJson.write(every);
    assertThat(json)
        .contains("\"n\":12345678901234567890.123456789")
        .contains("\"b\":{\"$b\":\"AAH/\"}")
        .contains("\"ss\":{\"$ss\":[\"a\",\"b\"]}")
        .contains("\"ns\":{\"$ns\":[1,2.5]}")
        .contains("\"tagLike\":{\"$m\":{\"$b\":\"not binary\"}}")
        .contains("\"nil\":null");
    assertThat(ItemJson.parseItem("{\"price\": 12.50}").getNumber("price"))
        .isEqualByComparingTo("12.5");
  }

  @Test
  void errorsNameTheAttribute() {
    assertThatThrownBy(() -> ItemJson.parseItem("{\"a\": {\"$ns\": [\"x\"]}}"))
        .hasMessageContaining("attribute 'a'");
    assertThatThrownBy(() -> ItemJson.parseItem("{\"stowage:ovf\": 1}"))
        .hasMessageContaining("reserved");
    assertThatThrownBy(() -> ItemJson.parseItem("{\"a\": 1,}")).hasMessageContaining("offset");
    assertThatThrownBy(() -> ItemJson.parseItem("[1]")).hasMessageContaining("JSON object");
  }

  @Test
  void aMalformedTaggedValueSaysWhatTheTagTakes() {
    Map<String, String> cases =
        Map.of(
            "{\"b\": {\"$b\": 5}}", "attribute 'b': {\"$b\": …} takes strings, not 5",
            "{\"b\": {\"$b\": \"!!\"}}", "attribute 'b': '!!' is not standard base64 (",
            "{\"s\": {\"$ss\": \"a\"}}",
                "attribute 's': {\"$ss\": …} takes an array of strings, not \"a\"",
            "{\"s\": {\"$ss\": [1]}}", "attribute 's': {\"$ss\": …} takes strings, not 1",
            "{\"s\": {\"$bs\": {}}}",
                "attribute 's': {\"$bs\": …} takes an array of base64 strings, not {}",
            "{\"s\": {\"$ns\": 1}}", "attribute 's': {\"$ns\": …} takes an array of numbers, not 1",
            "{\"m\": {\"$m\": [1]}}", "attribute 'm': {\"$m\": …} takes a JSON object, not [1]");
    cases.forEach(
        (json, message) ->
            assertThatThrownBy(() -> ItemJson.parseItem(json))
                .as(json)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("cast")));
  }

  @Test
  void duplicateKeysAreRefusedAtEveryLevel() {
    assertThatThrownBy(() -> ItemJson.parseItem("{\"a\": 1, \"a\": 2}"))
        .hasMessageContaining("offset")
        .hasMessageContaining("Duplicate field 'a'");
    assertThatThrownBy(() -> ItemJson.parseItem("{\"m\": {\"x\": 1, \"x\": 1}}"))
        .hasMessageContaining("Duplicate field 'x'");
  }

  @Test
  void numbersAreExactDecimalsInBothDirections() {
    Item item =
        ItemJson.parseItem(
            "{\"a\": 0.1, \"b\": 12345678901234567890123456789012345678, \"c\": -1.50e-3,"
                + " \"d\": 1E+125}");
    assertThat(item.getNumber("a")).isEqualTo(new BigDecimal("0.1"));
    assertThat(item.getNumber("b"))
        .isEqualTo(new BigDecimal("12345678901234567890123456789012345678"));
    assertThat(item.getNumber("c")).isEqualByComparingTo("-0.0015");
    assertThat(ItemJson.write(item))
        .isEqualTo(
            "{\"a\":0.1,\"b\":12345678901234567890123456789012345678,\"c\":-0.0015,\"d\":1E+125}");
  }

  @Test
  void malformedInputNamesTheOffsetOnOneLine() {
    for (String bad :
        List.of("{\"a\": 01}", "{\"a\": NaN}", "{\"a\": 1} x", "{'a': 1}", "", "{\"a\"")) {
      assertThatThrownBy(() -> Json.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("invalid JSON at offset")
          .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
  }

  @Test
  void prettyOutputIndentsByTwoSpaces() {
    assertThat(Json.writePretty(Json.parse("{\"a\":[1,{}],\"b\":{\"c\":[]}}")))
        .isEqualTo("{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": {\n    \"c\": []\n  }\n}");
  }
}
