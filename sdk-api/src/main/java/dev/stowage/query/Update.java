package dev.stowage.query;

import dev.stowage.item.AttributeNames;
import dev.stowage.item.AttributeValue;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;

/**
 * A set of changes to one item, applied atomically. An update of a missing item creates it (with
 * its key attributes), like DynamoDB's UpdateItem; guard with {@link Condition#exists} to prevent
 * that. Each attribute may be named by one action only. Key attributes cannot be changed. Immutable
 * and thread-safe.
 */
public final class Update {
  private final List<Action> actions;

  private Update(List<Action> actions) {
    this.actions = List.copyOf(actions);
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** The actions in the order they were declared. */
  public List<Action> actions() {
    return actions;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Update u && actions.equals(u.actions);
  }

  @Override
  public int hashCode() {
    return actions.hashCode();
  }

  @Override
  public String toString() {
    return "Update" + actions;
  }

  /** One change to one attribute. */
  public sealed interface Action
      permits Set, Remove, Increment, AddToSet, RemoveFromSet, AppendToList {
    /** The attribute the action changes. */
    String attribute();
  }

  /** Sets the attribute to a value. */
  public record Set(String attribute, AttributeValue value) implements Action {
    public Set {
      AttributeNames.validate(attribute);
      Objects.requireNonNull(value, "value");
    }
  }

  /** Removes the attribute (no effect if absent). */
  public record Remove(String attribute) implements Action {
    public Remove {
      AttributeNames.validate(attribute);
    }
  }

  /** Adds {@code delta} to a number attribute; an absent attribute counts as zero. */
  public record Increment(String attribute, BigDecimal delta) implements Action {
    public Increment {
      AttributeNames.validate(attribute);
      delta = AttributeValue.of(Objects.requireNonNull(delta, "delta")).value();
    }
  }

  /**
   * Adds the elements of a set value to a set attribute of the same type, creating it if absent.
   */
  public record AddToSet(String attribute, AttributeValue elements) implements Action {
    public AddToSet {
      AttributeNames.validate(attribute);
      requireSet(attribute, elements);
    }
  }

  /** Removes elements from a set attribute; a set left empty is removed. */
  public record RemoveFromSet(String attribute, AttributeValue elements) implements Action {
    public RemoveFromSet {
      AttributeNames.validate(attribute);
      requireSet(attribute, elements);
    }
  }

  /** Appends values to a list attribute, creating it if absent. */
  public record AppendToList(String attribute, List<AttributeValue> values) implements Action {
    public AppendToList {
      AttributeNames.validate(attribute);
      values = List.copyOf(values);
    }
  }

  private static void requireSet(String attribute, AttributeValue v) {
    if (!(v instanceof AttributeValue.StringSetValue
        || v instanceof AttributeValue.NumberSetValue
        || v instanceof AttributeValue.BinarySetValue)) {
      throw new IllegalArgumentException(
          "set action on '"
              + attribute
              + "' needs a set value, not "
              + (v == null ? "null" : v.type()));
    }
  }

  /** Builds an {@link Update}; not thread-safe. */
  public static final class Builder {
    private final List<Action> actions = new ArrayList<>();
    private final java.util.Set<String> named = new HashSet<>();

    private Builder() {}

    /** Adds an action. @throws IllegalArgumentException if its attribute is already named */
    public Builder action(Action action) {
      if (!named.add(action.attribute())) {
        throw new IllegalArgumentException(
            "update names attribute '" + action.attribute() + "' in more than one action");
      }
      actions.add(action);
      return this;
    }

    /** Sets an attribute. */
    public Builder set(String attribute, AttributeValue value) {
      return action(new Set(attribute, value));
    }

    /** Sets a string attribute. */
    public Builder set(String attribute, String value) {
      return set(attribute, AttributeValue.of(value));
    }

    /** Sets a number attribute. */
    public Builder set(String attribute, long value) {
      return set(attribute, AttributeValue.of(value));
    }

    /** Removes an attribute. */
    public Builder remove(String attribute) {
      return action(new Remove(attribute));
    }

    /** Increments a number attribute. */
    public Builder increment(String attribute, long delta) {
      return action(new Increment(attribute, BigDecimal.valueOf(delta)));
    }

    /** Increments a number attribute. */
    public Builder increment(String attribute, BigDecimal delta) {
      return action(new Increment(attribute, delta));
    }

    /** Adds elements to a set. */
    public Builder addToSet(String attribute, AttributeValue elements) {
      return action(new AddToSet(attribute, elements));
    }

    /** Removes elements from a set. */
    public Builder removeFromSet(String attribute, AttributeValue elements) {
      return action(new RemoveFromSet(attribute, elements));
    }

    /** Appends to a list. */
    public Builder appendToList(String attribute, AttributeValue... values) {
      return action(new AppendToList(attribute, List.of(values)));
    }

    /** The update. @throws IllegalArgumentException if it has no action */
    public Update build() {
      if (actions.isEmpty()) {
        throw new IllegalArgumentException("an update needs at least one action");
      }
      return new Update(actions);
    }
  }

  /** The names of attributes this update touches. */
  public java.util.Set<String> attributes() {
    java.util.Set<String> s = new HashSet<>();
    actions.forEach(a -> s.add(a.attribute()));
    return java.util.Set.copyOf(s);
  }
}
