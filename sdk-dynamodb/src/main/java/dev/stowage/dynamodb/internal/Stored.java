package dev.stowage.dynamodb.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.spi.StoredItem;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Turns native items into {@link StoredItem}s: the token attribute becomes the token. */
public final class Stored {
  private Stored() {}

  /** The stored item of a native item; the token attribute never appears in its attributes. */
  public static StoredItem of(Map<String, AttributeValue> item) {
    AttributeValue tok = item.get(Tokens.ATTRIBUTE);
    String token = tok != null && tok.s() != null ? tok.s() : Tokens.NONE;
    try {
      return new StoredItem(AttributeMapper.itemFrom(item, Tokens.ATTRIBUTE), token);
    } catch (IllegalArgumentException e) {
      // Written by another tool with something Stowage's item model cannot hold (a name over 255
      // bytes, a number beyond 38 digits).
      throw new InvalidRequestException(
          "a stored item cannot be read as a Stowage item: " + e.getMessage(), e);
    }
  }

  /** The native item to write: the item's attributes plus the token attribute. */
  public static Map<String, AttributeValue> toWrite(dev.stowage.item.Item item, String token) {
    Map<String, AttributeValue> out = AttributeMapper.toNative(item.attributes());
    out.put(Tokens.ATTRIBUTE, AttributeValue.builder().s(token).build());
    return out;
  }
}
