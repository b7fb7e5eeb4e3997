package dev.stowage.typed.internal;

import dev.stowage.AttributePolicy;
import dev.stowage.item.AttributeNames;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.typed.Attribute;
import dev.stowage.typed.AttributeConverter;
import dev.stowage.typed.Compressed;
import dev.stowage.typed.Convert;
import dev.stowage.typed.Encrypted;
import dev.stowage.typed.Ignore;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Builds the {@link ClassModel} of a class and of every class nested in it, and the codec of every
 * field type, once. Not thread-safe: one factory maps one top-level class.
 *
 * <p>Failures throw {@link MappingException} naming the class and field.
 */
final class ModelFactory {
  private final Map<Class<?>, AttributeConverter<?>> converters;
  private final Map<Class<?>, ClassModel> models = new HashMap<>();

  private final MethodHandles.Lookup caller;

  /**
   * @param caller a lookup the application made in its own module, or null to reach its classes
   *     through Stowage's own module (which needs their packages open to it)
   */
  ModelFactory(Map<Class<?>, AttributeConverter<?>> converters, MethodHandles.Lookup caller) {
    this.converters = Map.copyOf(converters);
    this.caller = caller;
  }

  private MethodHandles.Lookup lookupOf(Class<?> type) {
    return Handles.lookup(type, caller);
  }

  /** A class that cannot be mapped; the message names the class and field. */
  static final class MappingException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MappingException(Class<?> type, String field, String why, Throwable cause) {
      super(
          "cannot map class "
              + type.getName()
              + (field == null ? "" : ", field '" + field + "'")
              + ": "
              + why,
          cause);
    }
  }

  ClassModel model(Class<?> type) {
    ClassModel m = models.get(type);
    if (m != null) {
      return m;
    }
    if (type.isInterface()
        || Modifier.isAbstract(type.getModifiers())
        || type.isArray()
        || type.isPrimitive()
        || type.isEnum()
        || type.getName().startsWith("java.")) {
      throw new MappingException(
          type, null, "only records and concrete classes can be stored as maps", null);
    }
    if (type.getEnclosingClass() != null
        && !Modifier.isStatic(type.getModifiers())
        && !type.isRecord()) {
      throw new MappingException(
          type, null, "an inner class needs its outer instance; make it static", null);
    }
    m = new ClassModel(type);
    models.put(type, m);
    MethodHandles.Lookup lookup;
    try {
      lookup = lookupOf(type);
    } catch (IllegalArgumentException e) {
      throw new MappingException(type, null, e.getMessage(), e);
    }
    if (type.isRecord()) {
      completeRecord(m, lookup);
    } else {
      completeClass(m, lookup);
    }
    return m;
  }

  private void completeRecord(ClassModel m, MethodHandles.Lookup lookup) {
    Class<?> type = m.type;
    RecordComponent[] components = type.getRecordComponents();
    List<Property> props = new ArrayList<>();
    Object[] defaults = new Object[components.length];
    Class<?>[] types = new Class<?>[components.length];
    for (int i = 0; i < components.length; i++) {
      RecordComponent rc = components[i];
      types[i] = rc.getType();
      Field f;
      try {
        f = type.getDeclaredField(rc.getName());
      } catch (NoSuchFieldException e) {
        throw new MappingException(type, rc.getName(), "no field for the component", e);
      }
      defaults[i] = absentValue(rc.getType());
      if (f.isAnnotationPresent(Ignore.class)) {
        continue;
      }
      Function<Object, Object> getter;
      try {
        getter = Handles.getter(lookup, rc.getAccessor());
      } catch (IllegalArgumentException e) {
        throw new MappingException(type, rc.getName(), e.getMessage(), e);
      }
      props.add(property(type, f, rc.getGenericType(), getter, i));
    }
    Constructor<?> canonical;
    try {
      canonical = type.getDeclaredConstructor(types);
    } catch (NoSuchMethodException e) {
      throw new MappingException(type, null, "no canonical constructor", e);
    }
    m.complete(props, Constructors.of(lookup, canonical), defaults);
  }

  private void completeClass(ClassModel m, MethodHandles.Lookup lookup) {
    Class<?> type = m.type;
    List<Field> fields = new ArrayList<>();
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      List<Field> own = new ArrayList<>();
      for (Field f : c.getDeclaredFields()) {
        int mod = f.getModifiers();
        if (!Modifier.isStatic(mod)
            && !Modifier.isTransient(mod)
            && !f.isSynthetic()
            && !f.isAnnotationPresent(Ignore.class)) {
          own.add(f);
        }
      }
      fields.addAll(0, own);
    }
    if (fields.isEmpty()) {
      throw new MappingException(type, null, "it has no fields to store", null);
    }
    List<Property> props = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      Field f = fields.get(i);
      Function<Object, Object> getter;
      try {
        Method accessor = accessor(type, f);
        getter =
            accessor != null
                ? Handles.getter(lookup(lookup, accessor.getDeclaringClass()), accessor)
                : Handles.getter(lookup(lookup, f.getDeclaringClass()), f);
      } catch (IllegalArgumentException e) {
        throw new MappingException(type, f.getName(), e.getMessage(), e);
      }
      props.add(property(type, f, f.getGenericType(), getter, i));
    }
    Object[] defaults = new Object[props.size()];
    for (Property p : props) {
      defaults[p.slot()] = p.absent();
    }
    m.complete(props, instantiator(type, lookup, fields), defaults);
  }

  private MethodHandles.Lookup lookup(MethodHandles.Lookup own, Class<?> declaring) {
    return declaring == own.lookupClass() ? own : lookupOf(declaring);
  }

  /**
   * How instances are built, in order of preference: a static {@code builder()} whose builder has a
   * method per field and {@code build()}; a constructor taking every field in declaration order; a
   * no-argument constructor followed by setters (or direct writes of non-final fields).
   */
  private Function<Object[], Object> instantiator(
      Class<?> type, MethodHandles.Lookup lookup, List<Field> fields) {
    Method builder = findBuilder(type);
    if (builder != null) {
      return builderInstantiator(type, lookup, builder, fields);
    }
    Class<?>[] types = fields.stream().map(Field::getType).toArray(Class<?>[]::new);
    try {
      Constructor<?> all = type.getDeclaredConstructor(types);
      return Constructors.of(lookup, all);
    } catch (NoSuchMethodException e) {
      // next way
    }
    Constructor<?> none;
    try {
      none = type.getDeclaredConstructor();
    } catch (NoSuchMethodException e) {
      throw new MappingException(
          type,
          null,
          "no way to build it: give it a static builder() method, a constructor taking every"
              + " stored field in declaration order "
              + Arrays.toString(types)
              + ", or a no-argument constructor and setters",
          null);
    }
    Supplier<Object> create = Handles.supplier(lookup, none);
    List<BiFunction<Object, Object, Object>> setters = new ArrayList<>();
    for (Field f : fields) {
      Method setter = method(type, "set" + capitalized(f.getName()), f.getType());
      if (setter != null) {
        setters.add(Handles.setter(lookup(lookup, setter.getDeclaringClass()), setter));
      } else if (!Modifier.isFinal(f.getModifiers())) {
        setters.add(Handles.setter(lookup(lookup, f.getDeclaringClass()), f));
      } else {
        throw new MappingException(
            type, f.getName(), "it is final and has no setter, and no constructor sets it", null);
      }
    }
    int n = setters.size();
    @SuppressWarnings("unchecked")
    BiFunction<Object, Object, Object>[] set = setters.toArray(new BiFunction[0]);
    return args -> {
      Object o = create.get();
      for (int i = 0; i < n; i++) {
        if (args[i] != null) {
          set[i].apply(o, args[i]);
        }
      }
      return o;
    };
  }

  private Function<Object[], Object> builderInstantiator(
      Class<?> type, MethodHandles.Lookup lookup, Method builderMethod, List<Field> fields) {
    Class<?> b = builderMethod.getReturnType();
    Method[] methods = new Method[fields.size()];
    for (int i = 0; i < methods.length; i++) {
      Field f = fields.get(i);
      Method m = method(b, f.getName(), f.getType());
      if (m == null) {
        m = method(b, "set" + capitalized(f.getName()), f.getType());
      }
      if (m == null) {
        m = method(b, "with" + capitalized(f.getName()), f.getType());
      }
      if (m == null) {
        throw new MappingException(
            type,
            f.getName(),
            "its builder "
                + b.getName()
                + " has no method "
                + f.getName()
                + "("
                + f.getType().getSimpleName()
                + ")",
            null);
      }
      methods[i] = m;
    }
    Method build = method(b, "build");
    if (build == null || !type.isAssignableFrom(build.getReturnType())) {
      throw new MappingException(
          type, null, "its builder " + b.getName() + " has no build()", null);
    }
    Function<Object[], Object> chain = builderChain(lookup, builderMethod, methods, build, b);
    if (chain != null) {
      return chain;
    }
    Supplier<Object> start = Handles.supplier(lookup, builderMethod);
    @SuppressWarnings("unchecked")
    BiFunction<Object, Object, Object>[] set = new BiFunction[methods.length];
    for (int i = 0; i < methods.length; i++) {
      set[i] = Handles.setter(lookupOf(methods[i].getDeclaringClass()), methods[i]);
    }
    Function<Object, Object> finish = Handles.getter(lookupOf(b), build);
    int n = set.length;
    return args -> {
      Object builder = start.get();
      for (int i = 0; i < n; i++) {
        if (args[i] != null) {
          Object next = set[i].apply(builder, args[i]);
          if (next != null && b.isInstance(next)) {
            builder = next;
          }
        }
      }
      return finish.apply(builder);
    };
  }

  /** The builder sequence as one method handle ({@link BuilderChain}), or null if not possible. */
  private Function<Object[], Object> builderChain(
      MethodHandles.Lookup lookup,
      Method builderMethod,
      Method[] setters,
      Method build,
      Class<?> b) {
    try {
      MethodHandle[] handles = new MethodHandle[setters.length];
      for (int i = 0; i < setters.length; i++) {
        handles[i] = lookupOf(setters[i].getDeclaringClass()).unreflect(setters[i]);
      }
      return BuilderChain.of(
          lookup.unreflect(builderMethod), handles, lookupOf(b).unreflect(build), b);
    } catch (IllegalAccessException | RuntimeException e) {
      return null;
    }
  }

  private static Method findBuilder(Class<?> type) {
    try {
      Method m = type.getDeclaredMethod("builder");
      return Modifier.isStatic(m.getModifiers()) && m.getReturnType() != void.class ? m : null;
    } catch (NoSuchMethodException e) {
      return null;
    }
  }

  private static Method accessor(Class<?> type, Field f) {
    String cap = capitalized(f.getName());
    for (String name : List.of(f.getName(), "get" + cap, "is" + cap)) {
      Method m = method(type, name);
      if (m != null && m.getReturnType() == f.getType()) {
        return m;
      }
    }
    return null;
  }

  /** A non-static method declared by {@code type} or a superclass. */
  private static Method method(Class<?> type, String name, Class<?>... params) {
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      try {
        Method m = c.getDeclaredMethod(name, params);
        if (!Modifier.isStatic(m.getModifiers())) {
          return m;
        }
      } catch (NoSuchMethodException e) {
        // superclass next
      }
    }
    return null;
  }

  private static String capitalized(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  private Property property(
      Class<?> owner, Field f, Type generic, Function<Object, Object> getter, int slot) {
    Attribute rename = f.getAnnotation(Attribute.class);
    String attribute = rename == null || rename.value().isEmpty() ? f.getName() : rename.value();
    List<String> aliases = rename == null ? List.of() : List.of(rename.aliases());
    try {
      AttributeNames.validate(attribute);
      aliases.forEach(AttributeNames::validate);
    } catch (IllegalArgumentException e) {
      throw new MappingException(owner, f.getName(), e.getMessage(), e);
    }
    boolean optional = f.getType() == Optional.class;
    Type valueGeneric = generic;
    if (optional) {
      if (!(generic instanceof ParameterizedType pt)) {
        throw new MappingException(owner, f.getName(), "Optional needs a type argument", null);
      }
      valueGeneric = pt.getActualTypeArguments()[0];
    }
    ValueCodec codec;
    Convert convert = f.getAnnotation(Convert.class);
    try {
      codec = convert != null ? converter(convert.value()) : codec(valueGeneric);
    } catch (MappingException e) {
      // A nested class that cannot be mapped: name the path from the outer field down to it.
      throw new MappingException(owner, f.getName(), e.getMessage(), e);
    } catch (RuntimeException e) {
      throw new MappingException(owner, f.getName(), e.getMessage(), e);
    }
    AttributePolicy policy =
        new AttributePolicy(
            f.isAnnotationPresent(Compressed.class), f.isAnnotationPresent(Encrypted.class));
    Class<?> valueType = box(raw(valueGeneric));
    return new Property(
        f.getName(),
        attribute,
        aliases,
        valueType,
        optional,
        codec,
        getter,
        slot,
        optional ? Optional.empty() : absentValue(f.getType()),
        policy,
        f);
  }

  private ValueCodec converter(Class<?> converterClass) {
    try {
      Constructor<?> c = converterClass.getDeclaredConstructor();
      c.setAccessible(true);
      return ofConverter((AttributeConverter<?>) c.newInstance());
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalArgumentException(
          "converter " + converterClass.getName() + " cannot be created: " + e, e);
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static ValueCodec ofConverter(AttributeConverter c) {
    return ScalarCodecs.codec(c.storedType(), v -> c.toAttribute(v), s -> c.fromAttribute(s));
  }

  /** The codec of a field type. */
  ValueCodec codec(Type t) {
    if (t instanceof Class<?> c) {
      AttributeConverter<?> user = converters.get(c);
      if (user != null) {
        return ofConverter(user);
      }
      ValueCodec builtIn = ScalarCodecs.forClass(c);
      if (builtIn != null) {
        return builtIn;
      }
      if (c.isEnum()) {
        return ScalarCodecs.forEnum(c);
      }
      if (AttributeValue.class.isAssignableFrom(c)) {
        return ScalarCodecs.RAW;
      }
      if (c == Optional.class) {
        throw new IllegalArgumentException("Optional is supported only as a field's own type");
      }
      if (Collection.class.isAssignableFrom(c) || Map.class.isAssignableFrom(c)) {
        throw new IllegalArgumentException(c.getName() + " needs type arguments");
      }
      if (c.isArray()
          || c.isPrimitive()
          || c.isInterface()
          || c == Object.class
          || c.getName().startsWith("java.")) {
        throw new IllegalArgumentException(
            "unsupported type "
                + c.getTypeName()
                + " (supported: strings, numbers, booleans, enums, Instant, LocalDate, UUID,"
                + " Duration, BigDecimal, BigInteger, byte[], ByteBuffer, lists, sets, string-keyed"
                + " maps, records and classes, and types with an AttributeConverter)");
      }
      return ClassModel.asCodec(model(c));
    }
    if (t instanceof ParameterizedType pt && pt.getRawType() instanceof Class<?> raw) {
      Type[] args = pt.getActualTypeArguments();
      AttributeConverter<?> user = converters.get(raw);
      if (user != null) {
        return ofConverter(user);
      }
      if (raw == List.class || raw == Collection.class) {
        return CollectionCodecs.list(codec(args[0]));
      }
      if (CollectionCodecs.isSetType(raw)) {
        return CollectionCodecs.set(codec(args[0]), raw != java.util.Set.class);
      }
      if (raw == Map.class) {
        if (args[0] != String.class) {
          throw new IllegalArgumentException(
              "map keys must be strings, not " + args[0].getTypeName());
        }
        return CollectionCodecs.map(codec(args[1]));
      }
      if (raw == Optional.class) {
        throw new IllegalArgumentException("Optional is supported only as a field's own type");
      }
      throw new IllegalArgumentException(
          "unsupported type " + t.getTypeName() + " (declare List, Set, SortedSet or Map fields)");
    }
    throw new IllegalArgumentException(
        "unsupported type " + t.getTypeName() + " (wildcards and type variables have no codec)");
  }

  static Class<?> raw(Type t) {
    if (t instanceof Class<?> c) {
      return c;
    }
    if (t instanceof ParameterizedType pt) {
      return (Class<?>) pt.getRawType();
    }
    return Object.class;
  }

  static Class<?> box(Class<?> c) {
    if (!c.isPrimitive()) {
      return c;
    }
    return java.lang.invoke.MethodType.methodType(c).wrap().returnType();
  }

  static Object absentValue(Class<?> type) {
    if (type == Optional.class) {
      return Optional.empty();
    }
    if (!type.isPrimitive()) {
      return null;
    }
    if (type == boolean.class) {
      return false;
    }
    if (type == char.class) {
      return '\0';
    }
    if (type == long.class) {
      return 0L;
    }
    if (type == int.class) {
      return 0;
    }
    if (type == short.class) {
      return (short) 0;
    }
    if (type == byte.class) {
      return (byte) 0;
    }
    if (type == double.class) {
      return 0d;
    }
    return 0f;
  }

  static boolean isKeyType(AttributeType t) {
    return t != null && t.isKeyType();
  }
}
