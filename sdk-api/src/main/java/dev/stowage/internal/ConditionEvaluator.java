package dev.stowage.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinarySetValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.AttributeValue.ListValue;
import dev.stowage.item.AttributeValue.NumberSetValue;
import dev.stowage.item.AttributeValue.NumberValue;
import dev.stowage.item.AttributeValue.StringSetValue;
import dev.stowage.item.AttributeValue.StringValue;
import dev.stowage.item.Item;
import dev.stowage.item.KeyValue;
import dev.stowage.query.Condition;
import java.util.HashSet;
import java.util.Set;

/**
 * Evaluates {@link Condition}s against decoded items with DynamoDB's semantics, so the portable
 * path and native condition expressions agree. Stateless and thread-safe.
 */
public final class ConditionEvaluator {
  private ConditionEvaluator() {}

  /** True if the condition holds for {@code item} (null or empty for an absent item). */
  public static boolean test(Condition c, Item item) {
    Item it = item == null ? Item.empty() : item;
    if (c instanceof Condition.Exists e) {
      return it.has(e.attribute());
    }
    if (c instanceof Condition.NotExists n) {
      return !it.has(n.attribute());
    }
    if (c instanceof Condition.Compare cmp) {
      AttributeValue v = it.find(cmp.attribute()).orElse(null);
      switch (cmp.op()) {
        case EQ:
          return cmp.value().equals(v);
        case NE:
          return !cmp.value().equals(v);
        default:
          Integer order = compare(v, cmp.value());
          if (order == null) {
            return false;
          }
          switch (cmp.op()) {
            case LT:
              return order < 0;
            case LE:
              return order <= 0;
            case GT:
              return order > 0;
            default:
              return order >= 0;
          }
      }
    }
    if (c instanceof Condition.Between b) {
      AttributeValue v = it.find(b.attribute()).orElse(null);
      Integer lo = compare(v, b.low());
      Integer hi = compare(v, b.high());
      return lo != null && hi != null && lo >= 0 && hi <= 0;
    }
    if (c instanceof Condition.BeginsWith bw) {
      AttributeValue v = it.find(bw.attribute()).orElse(null);
      if (v instanceof StringValue s && bw.prefix() instanceof StringValue p) {
        return s.value().startsWith(p.value());
      }
      if (v instanceof BinaryValue b && bw.prefix() instanceof BinaryValue p) {
        return b.value().startsWith(p.value());
      }
      return false;
    }
    if (c instanceof Condition.Contains ct) {
      return contains(it.find(ct.attribute()).orElse(null), ct.element());
    }
    if (c instanceof Condition.And and) {
      return and.conditions().stream().allMatch(x -> test(x, it));
    }
    if (c instanceof Condition.Or or) {
      return or.conditions().stream().anyMatch(x -> test(x, it));
    }
    if (c instanceof Condition.Not not) {
      return !test(not.condition(), it);
    }
    throw new IllegalArgumentException("unknown condition " + c);
  }

  private static Integer compare(AttributeValue v, AttributeValue operand) {
    if (v instanceof KeyValue a && operand instanceof KeyValue b && a.type() == b.type()) {
      return KeyValue.compare(a, b);
    }
    return null;
  }

  private static boolean contains(AttributeValue v, AttributeValue element) {
    if (v instanceof StringValue s && element instanceof StringValue e) {
      return s.value().contains(e.value());
    }
    if (v instanceof StringSetValue s && element instanceof StringValue e) {
      return s.values().contains(e.value());
    }
    if (v instanceof NumberSetValue s && element instanceof NumberValue e) {
      return s.values().contains(e.value());
    }
    if (v instanceof BinarySetValue s && element instanceof BinaryValue e) {
      return s.values().contains(e.value());
    }
    if (v instanceof ListValue l) {
      return l.values().contains(element);
    }
    return false;
  }

  /** Every attribute name a condition reads. */
  public static Set<String> attributes(Condition c) {
    Set<String> out = new HashSet<>();
    collect(c, out);
    return out;
  }

  private static void collect(Condition c, Set<String> out) {
    if (c instanceof Condition.Exists e) {
      out.add(e.attribute());
    } else if (c instanceof Condition.NotExists n) {
      out.add(n.attribute());
    } else if (c instanceof Condition.Compare cmp) {
      out.add(cmp.attribute());
    } else if (c instanceof Condition.Between b) {
      out.add(b.attribute());
    } else if (c instanceof Condition.BeginsWith bw) {
      out.add(bw.attribute());
    } else if (c instanceof Condition.Contains ct) {
      out.add(ct.attribute());
    } else if (c instanceof Condition.And and) {
      and.conditions().forEach(x -> collect(x, out));
    } else if (c instanceof Condition.Or or) {
      or.conditions().forEach(x -> collect(x, out));
    } else if (c instanceof Condition.Not not) {
      collect(not.condition(), out);
    }
  }

  /**
   * Rejects conditions a table cannot evaluate: on encrypted attributes (randomized ciphertext
   * cannot be compared) or on Stowage's reserved attributes.
   *
   * @throws InvalidRequestException naming the attribute
   */
  public static void validate(Condition c, TableSpec spec, String what) {
    if (c == null) {
      return;
    }
    for (String a : attributes(c)) {
      if (spec.policy(a).encrypted()) {
        throw new InvalidRequestException(
            what
                + " on encrypted attribute '"
                + a
                + "' of table '"
                + spec.name()
                + "' is not possible: randomized ciphertext cannot be compared");
      }
      if (dev.stowage.item.AttributeNames.isReserved(a)) {
        throw new InvalidRequestException(
            what + " on reserved attribute '" + a + "' is not allowed");
      }
    }
  }
}
