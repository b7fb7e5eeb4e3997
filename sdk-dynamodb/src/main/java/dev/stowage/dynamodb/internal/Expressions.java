package dev.stowage.dynamodb.internal;

import dev.stowage.item.AttributeValue;
import dev.stowage.query.Condition;
import dev.stowage.query.Update;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds DynamoDB condition, key-condition and update expressions in which every attribute name and
 * value is a placeholder ({@code #n0}, {@code :v0}), so reserved words and odd names work. Not
 * thread-safe; one instance per request.
 */
public final class Expressions {
  private final Map<String, String> names = new HashMap<>();
  private final Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> values =
      new HashMap<>();

  /** The placeholder for an attribute name. */
  public String name(String attribute) {
    return names.computeIfAbsent(attribute, a -> "#n" + names.size());
  }

  /**
   * A projection expression naming {@code attributes} through placeholders, or null for whole items
   * (when {@code attributes} is null).
   */
  public String projection(java.util.Set<String> attributes) {
    if (attributes == null) {
      return null;
    }
    return String.join(",", attributes.stream().sorted().map(this::name).toList());
  }

  /** Placeholder to attribute name, as DynamoDB expects it. */
  public Map<String, String> attributeNames() {
    Map<String, String> out = new HashMap<>();
    names.forEach((attribute, placeholder) -> out.put(placeholder, attribute));
    return out;
  }

  /** The placeholder for a value. */
  public String value(AttributeValue v) {
    return value(AttributeMapper.toNative(v));
  }

  /** The placeholder for a native value. */
  public String value(software.amazon.awssdk.services.dynamodb.model.AttributeValue v) {
    String p = ":v" + values.size();
    values.put(p, v);
    return p;
  }

  /** Placeholder values, or null when there are none (DynamoDB rejects an empty map). */
  public Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue>
      attributeValuesOrNull() {
    return values.isEmpty() ? null : values;
  }

  /** Placeholder names, or null when there are none. */
  public Map<String, String> attributeNamesOrNull() {
    return names.isEmpty() ? null : attributeNames();
  }

  /**
   * The condition expression for an expectation on the stored item's token.
   *
   * @param partitionAttribute the table's partition key attribute (exists on every stored item)
   * @return the expression, or null for {@link dev.stowage.spi.Expectation#ANY}
   */
  public String expectation(dev.stowage.spi.Expectation expect, String partitionAttribute) {
    if (expect instanceof dev.stowage.spi.Expectation.Absent) {
      return "attribute_not_exists(" + name(partitionAttribute) + ")";
    }
    if (expect instanceof dev.stowage.spi.Expectation.Token t) {
      if (Tokens.NONE.equals(t.token())) {
        return "attribute_exists("
            + name(partitionAttribute)
            + ") AND attribute_not_exists("
            + name(Tokens.ATTRIBUTE)
            + ")";
      }
      return name(Tokens.ATTRIBUTE) + " = " + value(AttributeValue.of(t.token()));
    }
    return null;
  }

  /**
   * A condition expression for a Stowage condition tree. Parentheses appear only where precedence
   * needs them (NOT binds tighter than AND, AND tighter than OR): DynamoDB rejects redundant ones.
   */
  public String condition(Condition c) {
    return render(c).text;
  }

  private record Rendered(String text, int precedence) {}

  private static final int OR = 1;
  private static final int AND = 2;
  private static final int ATOM = 3;

  private Rendered render(Condition c) {
    if (c instanceof Condition.And a) {
      return join(a.conditions(), " AND ", AND);
    }
    if (c instanceof Condition.Or o) {
      return join(o.conditions(), " OR ", OR);
    }
    if (c instanceof Condition.Not n) {
      Rendered inner = render(n.condition());
      return new Rendered("NOT " + wrap(inner, ATOM), ATOM);
    }
    return new Rendered(atom(c), ATOM);
  }

  private Rendered join(List<Condition> parts, String op, int precedence) {
    if (parts.size() == 1) {
      return render(parts.get(0));
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < parts.size(); i++) {
      if (i > 0) {
        sb.append(op);
      }
      sb.append(wrap(render(parts.get(i)), precedence));
    }
    return new Rendered(sb.toString(), precedence);
  }

  private static String wrap(Rendered r, int needed) {
    return r.precedence < needed ? "(" + r.text + ")" : r.text;
  }

  private String atom(Condition c) {
    if (c instanceof Condition.Exists e) {
      return "attribute_exists(" + name(e.attribute()) + ")";
    }
    if (c instanceof Condition.NotExists e) {
      return "attribute_not_exists(" + name(e.attribute()) + ")";
    }
    if (c instanceof Condition.Compare cmp) {
      String op =
          switch (cmp.op()) {
            case EQ -> " = ";
            case NE -> " <> ";
            case LT -> " < ";
            case LE -> " <= ";
            case GT -> " > ";
            case GE -> " >= ";
          };
      return name(cmp.attribute()) + op + value(cmp.value());
    }
    if (c instanceof Condition.Between b) {
      return name(b.attribute()) + " BETWEEN " + value(b.low()) + " AND " + value(b.high());
    }
    if (c instanceof Condition.BeginsWith b) {
      return "begins_with(" + name(b.attribute()) + ", " + value(b.prefix()) + ")";
    }
    Condition.Contains ct = (Condition.Contains) c;
    return "contains(" + name(ct.attribute()) + ", " + value(ct.element()) + ")";
  }

  /**
   * An update expression for the actions, plus {@code SET <tokenAttribute> = :token}.
   *
   * <p>SET for values, REMOVE, ADD for increments and set additions, DELETE for set removals, and
   * {@code list_append(if_not_exists(a, []), values)} for appends.
   */
  public String update(Update update, String tokenAttribute, String token) {
    List<String> set = new ArrayList<>();
    List<String> remove = new ArrayList<>();
    List<String> add = new ArrayList<>();
    List<String> delete = new ArrayList<>();
    for (Update.Action a : update.actions()) {
      String n = name(a.attribute());
      if (a instanceof Update.Set s) {
        set.add(n + " = " + value(s.value()));
      } else if (a instanceof Update.Remove) {
        remove.add(n);
      } else if (a instanceof Update.Increment inc) {
        add.add(n + " " + value(AttributeValue.of(inc.delta())));
      } else if (a instanceof Update.AddToSet ats) {
        add.add(n + " " + value(ats.elements()));
      } else if (a instanceof Update.RemoveFromSet rfs) {
        delete.add(n + " " + value(rfs.elements()));
      } else {
        Update.AppendToList app = (Update.AppendToList) a;
        String empty = value(AttributeValue.list(List.of()));
        set.add(
            n
                + " = list_append(if_not_exists("
                + n
                + ", "
                + empty
                + "), "
                + value(AttributeValue.list(app.values()))
                + ")");
      }
    }
    set.add(name(tokenAttribute) + " = " + value(AttributeValue.of(token)));
    StringBuilder sb = new StringBuilder();
    clause(sb, "SET", set);
    clause(sb, "REMOVE", remove);
    clause(sb, "ADD", add);
    clause(sb, "DELETE", delete);
    return sb.toString();
  }

  private static void clause(StringBuilder sb, String keyword, List<String> parts) {
    if (parts.isEmpty()) {
      return;
    }
    if (sb.length() > 0) {
      sb.append(' ');
    }
    sb.append(keyword).append(' ').append(String.join(", ", parts));
  }
}
