package dev.stowage.datastore.internal;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.BooleanValue;
import com.google.cloud.datastore.DoubleValue;
import com.google.cloud.datastore.EntityValue;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.IncompleteKey;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.LatLng;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.NullValue;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.Value;
import com.google.cloud.datastore.ValueBuilder;
import com.google.cloud.datastore.ValueType;
import dev.stowage.InvalidRequestException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.spi.NativeDoubles;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Converts attribute values to Datastore values and back, exactly, in both directions: every
 * Stowage value round-trips, and every value another application wrote reads into the item model
 * and is written back as the same native value while Stowage writes an equal value in its place.
 *
 * <p>Stowage's own values: strings, binary, booleans and null map to their native types; integers
 * that fit a long to integers; other numbers that a double holds exactly (see {@link Doubles}) to
 * doubles; maps to keyless entity values (property names escaped, see {@link #propertyName}).
 * Values Datastore has no type for are entity values tagged by the kind of an incomplete key:
 * {@code stowage.dec} (any other decimal, as a string), {@code stowage.ss}/{@code
 * stowage.ns}/{@code stowage.bs} (sets, as an array) and {@code stowage.list} (a list directly
 * inside a list, since Datastore forbids arrays in arrays). Every value Stowage chooses is excluded
 * from indexes.
 *
 * <p>Native values read as: double as a number or, without one, its text ({@link Doubles});
 * timestamp as the string {@code yyyy-MM-ddTHH:mm:ss.ffffffZ}; geographic point as the map {@code
 * {latitude, longitude}}; key as the string of {@link Key#toUrlSafe()}; entity value (with or
 * without a key) as a map of its properties; array as a list.
 *
 * <p>Writes take the value stored before at the same place (property, map key, array position) as a
 * <em>template</em>: an equal value is written back as the template itself (type, index flag,
 * meaning, an embedded entity's key); a different value the template's type can hold exactly (a
 * canonical timestamp string, a number a double holds, a map of latitude and longitude, a key's
 * URL-safe string, a map into an entity value, a list into an array) keeps its type, index flag and
 * meaning; anything else gets Stowage's own type. Stateless apart from the project id; thread-safe.
 */
public final class Values {
  static final String DECIMAL = "stowage.dec";
  static final String STRING_SET = "stowage.ss";
  static final String NUMBER_SET = "stowage.ns";
  static final String BINARY_SET = "stowage.bs";
  static final String NESTED_LIST = "stowage.list";
  static final String TAG_VALUE = "v";
  private static final Set<String> TAGS =
      Set.of(DECIMAL, STRING_SET, NUMBER_SET, BINARY_SET, NESTED_LIST);
  static final String LATITUDE = "latitude";
  static final String LONGITUDE = "longitude";

  /** Longest string or blob Datastore indexes, in bytes. */
  static final int MAX_INDEXED_BYTES = 1500;

  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);
  private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

  private final String projectId;

  /** A codec for entity values tagged with keys of this project. */
  public Values(String projectId) {
    this.projectId = projectId;
  }

  /** The Datastore value of {@code v}, excluded from indexes. */
  public Value<?> toDatastore(AttributeValue v) {
    return toDatastore(v, null, false);
  }

  /**
   * The Datastore value of {@code v} in the place of {@code template}, the value stored there
   * before (or null).
   */
  public Value<?> toDatastore(AttributeValue v, Value<?> template) {
    return toDatastore(v, template, false);
  }

  private Value<?> toDatastore(AttributeValue v, Value<?> template, boolean insideList) {
    if (template == null) {
      return stowageValue(v, insideList);
    }
    Value<?> kept = keepNative(v, template, insideList);
    if (kept != null) {
      return kept;
    }
    Value<?> own = stowageValue(v, insideList);
    if (!template.excludeFromIndexes() && !isTag(template) && indexable(own)) {
      // The property was indexed: it stays indexed in its new type, for the other application's
      // queries.
      return own.toBuilder().setExcludeFromIndexes(false).build();
    }
    return own;
  }

  /** True for a scalar Stowage value Datastore can index. */
  private static boolean indexable(Value<?> v) {
    return switch (v.getType()) {
      case LONG, DOUBLE, BOOLEAN, NULL -> true;
      case STRING -> utf8((String) v.get()) <= MAX_INDEXED_BYTES;
      case BLOB -> ((Blob) v.get()).getLength() <= MAX_INDEXED_BYTES;
      default -> false;
    };
  }

  /** Stowage's own Datastore value of {@code v}. */
  private Value<?> stowageValue(AttributeValue v, boolean insideList) {
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
        lb.addValue(toDatastore(e, null, true));
      }
      ListValue array = lb.build();
      return insideList ? tagged(NESTED_LIST, array) : array;
    }
    if (v instanceof AttributeValue.MapValue m) {
      return EntityValue.newBuilder(entity(m, null)).setExcludeFromIndexes(true).build();
    }
    ListValue.Builder lb = ListValue.newBuilder();
    if (v instanceof AttributeValue.StringSetValue s) {
      s.values().forEach(e -> lb.addValue(toDatastore(AttributeValue.of(e), null, true)));
      return tagged(STRING_SET, lb.build());
    }
    if (v instanceof AttributeValue.NumberSetValue s) {
      s.values().forEach(e -> lb.addValue(number(e)));
      return tagged(NUMBER_SET, lb.build());
    }
    ((AttributeValue.BinarySetValue) v).values().forEach(e -> lb.addValue(blob(e)));
    return tagged(BINARY_SET, lb.build());
  }

  /**
   * {@code v} as a value of the template's native type, with its index flag and meaning, or null
   * when that type cannot hold {@code v} exactly.
   */
  private Value<?> keepNative(AttributeValue v, Value<?> template, boolean insideList) {
    if (isTag(template)) {
      return null;
    }
    AttributeValue before;
    try {
      before = fromDatastore(template);
    } catch (InvalidRequestException unreadable) {
      return null;
    }
    if (before.equals(v)) {
      return template;
    }
    switch (template.getType()) {
      case STRING:
        if (v instanceof AttributeValue.StringValue s) {
          return like(template, s.value(), utf8(s.value()));
        }
        return null;
      case BLOB:
        if (v instanceof AttributeValue.BinaryValue b) {
          return like(template, Blob.copyFrom(b.value().asReadOnlyBuffer()), b.value().size());
        }
        return null;
      case BOOLEAN:
        return v instanceof AttributeValue.BooleanValue b ? like(template, b.value(), 0) : null;
      case NULL:
        return null;
      case LONG:
        if (v instanceof AttributeValue.NumberValue n && fitsLong(n.value())) {
          return like(template, n.value().longValueExact(), 0);
        }
        return null;
      case DOUBLE:
        {
          Double d = null;
          if (v instanceof AttributeValue.NumberValue n) {
            d = NativeDoubles.exact(n.value());
          } else if (v instanceof AttributeValue.StringValue s) {
            d = NativeDoubles.fromText(s.value());
          }
          return d == null ? null : like(template, d, 0);
        }
      case TIMESTAMP:
        {
          Timestamp t = v instanceof AttributeValue.StringValue s ? timestamp(s.value()) : null;
          return t == null ? null : like(template, t, 0);
        }
      case LAT_LNG:
        {
          LatLng p = v instanceof AttributeValue.MapValue m ? latLng(m) : null;
          return p == null ? null : like(template, p, 0);
        }
      case KEY:
        {
          Key k = v instanceof AttributeValue.StringValue s ? key(s.value()) : null;
          return k == null ? null : like(template, k, 0);
        }
      case ENTITY:
        if (v instanceof AttributeValue.MapValue m) {
          FullEntity<?> t = ((EntityValue) template).get();
          return like(template, entity(m, t), 0);
        }
        return null;
      case LIST:
        if (v instanceof AttributeValue.ListValue l && !insideList) {
          List<? extends Value<?>> t = ((ListValue) template).get();
          ListValue.Builder lb = ListValue.newBuilder();
          for (int i = 0; i < l.values().size(); i++) {
            Value<?> et = t.isEmpty() ? null : t.get(Math.min(i, t.size() - 1));
            lb.addValue(toDatastore(l.values().get(i), et, true));
          }
          return like(template, lb.build().get(), 0);
        }
        return null;
      default:
        return null;
    }
  }

  /**
   * A value of the template's type holding {@code payload}, with the template's index flag (unless
   * the payload is too long to index) and meaning.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Value<?> like(Value<?> template, Object payload, int bytes) {
    ValueBuilder b = template.toBuilder();
    b.set(payload);
    if (bytes > MAX_INDEXED_BYTES) {
      b.setExcludeFromIndexes(true);
    }
    return b.build();
  }

  /** The entity value of a map, with the template's key, each property in its template's place. */
  private FullEntity<IncompleteKey> entity(AttributeValue.MapValue m, FullEntity<?> template) {
    FullEntity.Builder<IncompleteKey> eb =
        template != null && template.getKey() != null
            ? FullEntity.newBuilder(template.getKey())
            : FullEntity.newBuilder();
    m.values()
        .forEach(
            (k, e) -> {
              String name = propertyName(k);
              Value<?> t =
                  template != null && template.contains(name) ? template.getValue(name) : null;
              eb.set(name, toDatastore(e, t, false));
            });
    return eb.build();
  }

  /**
   * The indexed Datastore value of an attribute a native index reads, or null for a value no native
   * index holds (not a string, number or binary). Strings stay strings and binary values blobs; a
   * number stays a double where the stored value was one and a double holds it exactly, else
   * becomes an integer if it fits 64 bits, else a double if one holds it exactly. Datastore indexes
   * nothing else as a number, so any other number is refused.
   *
   * @param template the value stored there before, or null
   * @param what names the attribute and index, for the refusal
   * @throws InvalidRequestException for a number neither a 64-bit integer nor a double holds
   */
  public static Value<?> nativeIndexed(AttributeValue v, Value<?> template, String what) {
    if (v instanceof AttributeValue.StringValue s) {
      return StringValue.of(s.value());
    }
    if (v instanceof AttributeValue.BinaryValue b) {
      return indexedBlob(b.value());
    }
    if (!(v instanceof AttributeValue.NumberValue n)) {
      return null;
    }
    Double d = NativeDoubles.exact(n.value());
    if (template != null && template.getType() == ValueType.DOUBLE && d != null) {
      return DoubleValue.of(d);
    }
    if (fitsLong(n.value())) {
      return LongValue.of(n.value().longValueExact());
    }
    if (d != null) {
      return DoubleValue.of(d);
    }
    throw new InvalidRequestException(
        what
            + ": Datastore indexes numbers as 64-bit integers or doubles, and "
            + n.value().toPlainString()
            + " is neither exactly");
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
    if (fitsLong(n)) {
      return LongValue.newBuilder(n.longValueExact()).setExcludeFromIndexes(true).build();
    }
    Double d = NativeDoubles.exact(n);
    if (d != null) {
      return DoubleValue.newBuilder(d).setExcludeFromIndexes(true).build();
    }
    return tagged(
        DECIMAL, StringValue.newBuilder(n.toString()).setExcludeFromIndexes(true).build());
  }

  private static boolean fitsLong(BigDecimal n) {
    return n.scale() <= 0 && n.compareTo(LONG_MIN) >= 0 && n.compareTo(LONG_MAX) <= 0;
  }

  private Value<?> tagged(String kind, Value<?> payload) {
    FullEntity<IncompleteKey> e =
        FullEntity.newBuilder(IncompleteKey.newBuilder(projectId, kind).build())
            .set(TAG_VALUE, payload)
            .build();
    return EntityValue.newBuilder(e).setExcludeFromIndexes(true).build();
  }

  /** True for Stowage's tagged entity values (an incomplete key of a {@code stowage.} kind). */
  private static boolean isTag(Value<?> v) {
    if (v.getType() != ValueType.ENTITY) {
      return false;
    }
    IncompleteKey k = ((EntityValue) v).get().getKey();
    return k != null && !(k instanceof Key) && TAGS.contains(k.getKind());
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
      case DOUBLE -> {
        double d = (Double) v.get();
        AttributeValue.NumberValue n = NativeDoubles.number(d);
        yield n != null ? n : AttributeValue.of(NativeDoubles.text(d));
      }
      case TIMESTAMP -> AttributeValue.of(timestampText((Timestamp) v.get()));
      case LAT_LNG -> {
        LatLng p = (LatLng) v.get();
        yield AttributeValue.map(
            Map.of(
                LATITUDE, coordinate(p.getLatitude()),
                LONGITUDE, coordinate(p.getLongitude())));
      }
      case KEY -> AttributeValue.of(((Key) v.get()).toUrlSafe());
      case LIST -> {
        List<AttributeValue> out = new ArrayList<>();
        for (Value<?> e : ((ListValue) v).get()) {
          out.add(fromDatastore(e));
        }
        yield AttributeValue.list(out);
      }
      case ENTITY -> fromEntity(v);
      default ->
          throw new InvalidRequestException(
              "Datastore value of type " + t + " has no Stowage equivalent");
    };
  }

  private AttributeValue fromEntity(Value<?> v) {
    FullEntity<?> e = ((EntityValue) v).get();
    if (!isTag(v)) {
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
      default -> {
        List<Bytes> s = new ArrayList<>();
        ((ListValue) payload).get().forEach(x -> s.add(Bytes.wrap(((Blob) x.get()).toByteArray())));
        yield AttributeValue.binarySet(s);
      }
    };
  }

  private static AttributeValue coordinate(double d) {
    AttributeValue.NumberValue n = NativeDoubles.number(d);
    return n != null ? n : AttributeValue.of(NativeDoubles.text(d));
  }

  /** The point of a map holding exactly a latitude and a longitude that doubles hold exactly. */
  private static LatLng latLng(AttributeValue.MapValue m) {
    if (m.values().size() != 2
        || !(m.values().get(LATITUDE) instanceof AttributeValue.NumberValue lat)
        || !(m.values().get(LONGITUDE) instanceof AttributeValue.NumberValue lng)) {
      return null;
    }
    Double la = NativeDoubles.exact(lat.value());
    Double lo = NativeDoubles.exact(lng.value());
    if (la == null || lo == null || Math.abs(la) > 90 || Math.abs(lo) > 180) {
      return null;
    }
    return LatLng.of(la, lo);
  }

  /** The text of a timestamp: UTC, always six fractional digits. */
  static String timestampText(Timestamp t) {
    return TIMESTAMP.format(Instant.ofEpochSecond(t.getSeconds(), t.getNanos()));
  }

  /** The timestamp whose text is exactly {@code s}, or null. */
  static Timestamp timestamp(String s) {
    if (s.length() != 27) {
      return null;
    }
    try {
      Instant i = Instant.from(TIMESTAMP.parse(s));
      Timestamp t = Timestamp.ofTimeSecondsAndNanos(i.getEpochSecond(), i.getNano());
      return timestampText(t).equals(s) ? t : null;
    } catch (DateTimeParseException | IllegalArgumentException e) {
      return null;
    }
  }

  /** The key whose URL-safe form is exactly {@code s}, or null. */
  static Key key(String s) {
    try {
      Key k = Key.fromUrlSafe(s);
      return k.toUrlSafe().equals(s) ? k : null;
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static int utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  /**
   * The property name of a map key. Datastore rejects empty names and names matching {@code
   * __.*__}; such a key gets a {@code ~} in front, and so does every key that is one of those with
   * {@code ~}s in front, to stay reversible. Every other key, {@code ~x} and {@code __typename}
   * included, is its own property name, so an embedded entity another application wrote reads with
   * its names as they are.
   */
  /** The property name of a top-level attribute, for code outside this package. */
  public static String nativePropertyName(String attribute) {
    return propertyName(attribute);
  }

  static String propertyName(String mapKey) {
    return escaped(mapKey) ? "~" + mapKey : mapKey;
  }

  static String mapKey(String propertyName) {
    return propertyName.startsWith("~") && escaped(propertyName.substring(1))
        ? propertyName.substring(1)
        : propertyName;
  }

  /** True if the key, after any leading {@code ~}s, is empty or matches {@code __.*__}. */
  private static boolean escaped(String key) {
    int i = 0;
    while (i < key.length() && key.charAt(i) == '~') {
      i++;
    }
    String rest = key.substring(i);
    return rest.isEmpty() || (rest.length() >= 4 && rest.startsWith("__") && rest.endsWith("__"));
  }
}
