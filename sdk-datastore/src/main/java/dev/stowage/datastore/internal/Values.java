package dev.stowage.datastore.internal;

import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.BooleanValue;
import com.google.cloud.datastore.EntityValue;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.IncompleteKey;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.NullValue;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.Value;
import com.google.cloud.datastore.ValueType;
import dev.stowage.InvalidRequestException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Converts attribute values to Datastore values and back, exactly.
 *
 * <p>Strings, binary, booleans and null map to their native types; integers that fit a long to
 * integers; maps to keyless entity values (property names escaped, see {@link #propertyName}).
 * Values Datastore has no type for are entity values tagged by the kind of an incomplete key:
 * {@code stowage.dec} (a decimal outside the long range or with a fraction, as a string), {@code
 * stowage.ss}/{@code stowage.ns}/{@code stowage.bs} (sets, as an array) and {@code stowage.list} (a
 * list directly inside a list, since Datastore forbids arrays in arrays). Every value is excluded
 * from indexes. Stateless apart from the project id; thread-safe.
 */
public final class Values {
  static final String DECIMAL = "stowage.dec";
  static final String STRING_SET = "stowage.ss";
  static final String NUMBER_SET = "stowage.ns";
  static final String BINARY_SET = "stowage.bs";
  static final String NESTED_LIST = "stowage.list";
  static final String TAG_VALUE = "v";
  private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

  private final String projectId;

  /** A codec for entity values tagged with keys of this project. */
  public Values(String projectId) {
    this.projectId = projectId;
  }

  /** The Datastore value of {@code v}, excluded from indexes. */
  public Value<?> toDatastore(AttributeValue v) {
    return toDatastore(v, false);
  }

  private Value<?> toDatastore(AttributeValue v, boolean insideList) {
    if (v instanceof AttributeValue.StringValue s) {
      return StringValue.newBuilder(s.value()).setExcludeFromIndexes(true).build();
    }
    if (v instanceof AttributeValue.BinaryValue b) {
      return blob(b.value());
    }
    if (v instanceof AttributeValue.NumberValue n) {
      return number(n.value());
    }
    if (v instanceof AttributeValue.BooleanValue b) {
      return BooleanValue.newBuilder(b.value()).setExcludeFromIndexes(true).build();
    }
    if (v instanceof AttributeValue.NullValue) {
      return NullValue.newBuilder().setExcludeFromIndexes(true).build();
    }
    if (v instanceof AttributeValue.ListValue l) {
      ListValue.Builder lb = ListValue.newBuilder();
      for (AttributeValue e : l.values()) {
        lb.addValue(toDatastore(e, true));
      }
      ListValue array = lb.build();
      return insideList ? tagged(NESTED_LIST, array) : array;
    }
    if (v instanceof AttributeValue.MapValue m) {
      FullEntity.Builder<IncompleteKey> eb = FullEntity.newBuilder();
      m.values().forEach((k, e) -> eb.set(propertyName(k), toDatastore(e, false)));
      return EntityValue.newBuilder(eb.build()).setExcludeFromIndexes(true).build();
    }
    ListValue.Builder lb = ListValue.newBuilder();
    if (v instanceof AttributeValue.StringSetValue s) {
      s.values().forEach(e -> lb.addValue(toDatastore(AttributeValue.of(e), true)));
      return tagged(STRING_SET, lb.build());
    }
    if (v instanceof AttributeValue.NumberSetValue s) {
      s.values().forEach(e -> lb.addValue(number(e)));
      return tagged(NUMBER_SET, lb.build());
    }
    ((AttributeValue.BinarySetValue) v).values().forEach(e -> lb.addValue(blob(e)));
    return tagged(BINARY_SET, lb.build());
  }

  /** An indexed blob, for the synthesized index attributes. */
  public static Value<?> indexedBlob(Bytes b) {
    return BlobValue.newBuilder(Blob.copyFrom(b.asReadOnlyBuffer())).build();
  }

  private static Value<?> blob(Bytes b) {
    return BlobValue.newBuilder(Blob.copyFrom(b.asReadOnlyBuffer()))
        .setExcludeFromIndexes(true)
        .build();
  }

  private Value<?> number(BigDecimal n) {
    if (n.scale() <= 0 && n.compareTo(LONG_MIN) >= 0 && n.compareTo(LONG_MAX) <= 0) {
      return LongValue.newBuilder(n.longValueExact()).setExcludeFromIndexes(true).build();
    }
    return tagged(
        DECIMAL, StringValue.newBuilder(n.toString()).setExcludeFromIndexes(true).build());
  }

  private Value<?> tagged(String kind, Value<?> payload) {
    FullEntity<IncompleteKey> e =
        FullEntity.newBuilder(IncompleteKey.newBuilder(projectId, kind).build())
            .set(TAG_VALUE, payload)
            .build();
    return EntityValue.newBuilder(e).setExcludeFromIndexes(true).build();
  }

  /** The attribute value of a stored Datastore value. */
  public AttributeValue fromDatastore(Value<?> v) {
    ValueType t = v.getType();
    return switch (t) {
      case STRING -> AttributeValue.of((String) v.get());
      case BLOB -> AttributeValue.of(Bytes.wrap(((Blob) v.get()).toByteArray()));
      case LONG -> AttributeValue.of((Long) v.get());
      case BOOLEAN -> AttributeValue.of((Boolean) v.get());
      case NULL -> AttributeValue.nullValue();
      case LIST -> {
        List<AttributeValue> out = new ArrayList<>();
        for (Value<?> e : ((ListValue) v).get()) {
          out.add(fromDatastore(e));
        }
        yield AttributeValue.list(out);
      }
      case ENTITY -> fromEntity(((EntityValue) v).get());
      default ->
          throw new InvalidRequestException(
              "Datastore value of type " + t + " was not written by Stowage");
    };
  }

  private AttributeValue fromEntity(FullEntity<?> e) {
    if (e.getKey() == null) {
      Map<String, AttributeValue> m = new LinkedHashMap<>();
      for (String name : e.getNames()) {
        m.put(mapKey(name), fromDatastore(e.getValue(name)));
      }
      return AttributeValue.map(m);
    }
    Value<?> payload = e.getValue(TAG_VALUE);
    return switch (e.getKey().getKind()) {
      case DECIMAL -> AttributeValue.of(new BigDecimal((String) payload.get()));
      case NESTED_LIST -> fromDatastore(payload);
      case STRING_SET -> {
        List<String> s = new ArrayList<>();
        ((ListValue) payload).get().forEach(x -> s.add((String) x.get()));
        yield AttributeValue.stringSet(s);
      }
      case NUMBER_SET -> {
        List<BigDecimal> s = new ArrayList<>();
        ((ListValue) payload)
            .get()
            .forEach(x -> s.add(((AttributeValue.NumberValue) fromDatastore(x)).value()));
        yield AttributeValue.numberSet(s);
      }
      case BINARY_SET -> {
        List<Bytes> s = new ArrayList<>();
        ((ListValue) payload).get().forEach(x -> s.add(Bytes.wrap(((Blob) x.get()).toByteArray())));
        yield AttributeValue.binarySet(s);
      }
      default ->
          throw new InvalidRequestException(
              "entity value of kind " + e.getKey().getKind() + " was not written by Stowage");
    };
  }

  /**
   * The property name of a map key: Datastore rejects empty names and names like {@code __x__}, so
   * keys that are empty, start with {@code ~} or start with {@code __} get a {@code ~} prefix.
   */
  static String propertyName(String mapKey) {
    return mapKey.isEmpty() || mapKey.startsWith("~") || mapKey.startsWith("__")
        ? "~" + mapKey
        : mapKey;
  }

  static String mapKey(String propertyName) {
    return propertyName.startsWith("~") ? propertyName.substring(1) : propertyName;
  }
}
