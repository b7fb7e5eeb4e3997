package dev.stowage.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.KeySchema;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinarySetValue;
import dev.stowage.item.AttributeValue.ListValue;
import dev.stowage.item.AttributeValue.NumberSetValue;
import dev.stowage.item.AttributeValue.NumberValue;
import dev.stowage.item.AttributeValue.StringSetValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.query.Update;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Applies {@link Update} actions to a decoded item, with DynamoDB's semantics (increments start
 * from zero, set additions create the set, a set emptied by removal disappears). Stateless and
 * thread-safe.
 */
public final class UpdateApplier {
  private UpdateApplier() {}

  /**
   * Checks that an update leaves key attributes alone and sets no value nested deeper than {@link
   * AttributeValue#MAX_NESTING} (the core checks whole items too, but native updates never become
   * whole items in the core).
   *
   * @throws InvalidRequestException naming the attribute
   */
  public static void validate(Update update, KeySchema keys) {
    for (Update.Action a : update.actions()) {
      if (keys.isKeyAttribute(a.attribute())) {
        throw new InvalidRequestException(
            "update cannot change key attribute '" + a.attribute() + "'");
      }
      String where = "the update of attribute '" + a.attribute() + "'";
      if (a instanceof Update.Set s) {
        Nesting.check(where, s.value());
      } else if (a instanceof Update.AppendToList app) {
        Nesting.check(where, AttributeValue.list(app.values()));
      }
    }
  }

  /**
   * The item after the update.
   *
   * @param current the current item (including its key attributes)
   * @throws InvalidRequestException if an action does not fit the attribute's current type
   */
  public static Item apply(Item current, Update update) {
    Item.Builder b = current.toBuilder();
    for (Update.Action a : update.actions()) {
      String name = a.attribute();
      AttributeValue old = current.find(name).orElse(null);
      if (a instanceof Update.Set s) {
        b.put(name, s.value());
      } else if (a instanceof Update.Remove) {
        b.remove(name);
      } else if (a instanceof Update.Increment inc) {
        BigDecimal base;
        if (old == null) {
          base = BigDecimal.ZERO;
        } else if (old instanceof NumberValue n) {
          base = n.value();
        } else {
          throw mismatch(name, "increment", old);
        }
        b.put(name, AttributeValue.of(base.add(inc.delta())));
      } else if (a instanceof Update.AddToSet add) {
        b.put(name, union(name, old, add.elements()));
      } else if (a instanceof Update.RemoveFromSet rem) {
        AttributeValue left = difference(name, old, rem.elements());
        if (left == null) {
          b.remove(name);
        } else {
          b.put(name, left);
        }
      } else if (a instanceof Update.AppendToList app) {
        List<AttributeValue> l = new ArrayList<>();
        if (old instanceof ListValue lv) {
          l.addAll(lv.values());
        } else if (old != null) {
          throw mismatch(name, "append", old);
        }
        l.addAll(app.values());
        b.put(name, AttributeValue.list(l));
      }
    }
    return b.build();
  }

  private static AttributeValue union(String name, AttributeValue old, AttributeValue add) {
    if (old == null) {
      return add;
    }
    if (old instanceof StringSetValue o && add instanceof StringSetValue n) {
      Set<String> s = new TreeSet<>(o.values());
      s.addAll(n.values());
      return AttributeValue.stringSet(s);
    }
    if (old instanceof NumberSetValue o && add instanceof NumberSetValue n) {
      Set<BigDecimal> s = new TreeSet<>(o.values());
      s.addAll(n.values());
      return AttributeValue.numberSet(s);
    }
    if (old instanceof BinarySetValue o && add instanceof BinarySetValue n) {
      Set<Bytes> s = new TreeSet<>(o.values());
      s.addAll(n.values());
      return AttributeValue.binarySet(s);
    }
    throw mismatch(name, "add " + add.type() + " elements", old);
  }

  private static AttributeValue difference(String name, AttributeValue old, AttributeValue rem) {
    if (old == null) {
      return null;
    }
    if (old instanceof StringSetValue o && rem instanceof StringSetValue n) {
      Set<String> s = new TreeSet<>(o.values());
      s.removeAll(n.values());
      return s.isEmpty() ? null : AttributeValue.stringSet(s);
    }
    if (old instanceof NumberSetValue o && rem instanceof NumberSetValue n) {
      Set<BigDecimal> s = new TreeSet<>(o.values());
      s.removeAll(n.values());
      return s.isEmpty() ? null : AttributeValue.numberSet(s);
    }
    if (old instanceof BinarySetValue o && rem instanceof BinarySetValue n) {
      Set<Bytes> s = new TreeSet<>(o.values());
      s.removeAll(n.values());
      return s.isEmpty() ? null : AttributeValue.binarySet(s);
    }
    throw mismatch(name, "remove " + rem.type() + " elements", old);
  }

  private static InvalidRequestException mismatch(String name, String action, AttributeValue old) {
    return new InvalidRequestException(
        "cannot " + action + " on attribute '" + name + "' of type " + old.type());
  }
}
