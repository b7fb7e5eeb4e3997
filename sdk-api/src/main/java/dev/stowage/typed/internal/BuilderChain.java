package dev.stowage.typed.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Objects;
import java.util.function.Function;

/**
 * A builder class's whole sequence (start a builder, call the setter of every field whose value is
 * not null, build) as one method handle of the argument array. Called through {@code invokeExact}
 * on a handle the JVM specialises to this very chain after its first calls, the setters inline into
 * one compiled body: where a loop over setter lambdas makes one call site that sees every setter of
 * every class, and so dispatches each call through an interface table.
 *
 * <p>Semantics are those of the loop it replaces: a null argument leaves its setter uncalled; a
 * setter that returns a builder (not null) continues with that builder (immutable builders return a
 * new one), any other result is ignored.
 */
final class BuilderChain {
  private static final MethodHandle NON_NULL;
  private static final MethodHandle IS_INSTANCE;
  private static final MethodHandle ELEMENT = MethodHandles.arrayElementGetter(Object[].class);

  static {
    try {
      NON_NULL =
          MethodHandles.lookup()
              .findStatic(
                  Objects.class, "nonNull", MethodType.methodType(boolean.class, Object.class));
      IS_INSTANCE =
          MethodHandles.lookup()
              .findVirtual(
                  Class.class, "isInstance", MethodType.methodType(boolean.class, Object.class));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private BuilderChain() {}

  /**
   * The chain, or null if the handles cannot be combined (the caller then loops over lambdas).
   *
   * @param start {@code builder()}: () to the builder
   * @param setters per argument position, the builder method taking that field's value
   * @param build {@code build()}: builder to instance
   * @param builderType the builder class
   */
  static Function<Object[], Object> of(
      MethodHandle start, MethodHandle[] setters, MethodHandle build, Class<?> builderType) {
    try {
      MethodHandle chain = chain(start, setters, build, builderType);
      return args -> {
        try {
          return chain.invokeExact(args);
        } catch (RuntimeException | Error x) {
          throw x;
        } catch (Throwable x) {
          throw new IllegalStateException(x);
        }
      };
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static MethodHandle chain(
      MethodHandle start, MethodHandle[] setters, MethodHandle build, Class<?> b) {
    // tail(builder, args): the rest of the sequence from setter i on; built from the end.
    MethodHandle tail =
        MethodHandles.dropArguments(
            build.asType(MethodType.methodType(Object.class, b)), 1, Object[].class);
    for (int i = setters.length - 1; i >= 0; i--) {
      MethodHandle step = step(setters[i], i, b);
      // tail'(builder, args) = tail(step(builder, args), args)
      tail = MethodHandles.foldArguments(MethodHandles.dropArguments(tail, 1, b), step);
    }
    // make(args) = tail(builder(), args)
    return MethodHandles.foldArguments(tail, start.asType(MethodType.methodType(b)))
        .asType(MethodType.methodType(Object.class, Object[].class));
  }

  /** (builder, args) to the builder after setter {@code i}, called if {@code args[i]} is set. */
  private static MethodHandle step(MethodHandle setter, int i, Class<?> b) {
    MethodType t = setter.type();
    Class<?> value = t.parameterType(1);
    MethodHandle set = setter.asType(t.changeParameterType(0, b));
    MethodHandle next; // (builder, value) to the builder that continues
    Class<?> r = t.returnType();
    if (!r.isPrimitive()) {
      // pick(result, builder) = b.isInstance(result) ? result : builder
      MethodHandle isBuilder = IS_INSTANCE.bindTo(b);
      MethodHandle pick =
          MethodHandles.guardWithTest(
              MethodHandles.dropArguments(isBuilder, 1, b),
              MethodHandles.dropArguments(
                  MethodHandles.identity(Object.class)
                      .asType(MethodType.methodType(b, Object.class)),
                  1,
                  b),
              MethodHandles.dropArguments(MethodHandles.identity(b), 0, Object.class));
      // next(builder, value) = pick(set(builder, value), builder)
      next =
          MethodHandles.foldArguments(
              MethodHandles.dropArguments(pick, 2, value),
              set.asType(MethodType.methodType(Object.class, b, value)));
    } else {
      MethodHandle ignored = set.asType(MethodType.methodType(void.class, b, value));
      next =
          MethodHandles.foldArguments(
              MethodHandles.dropArguments(MethodHandles.identity(b), 1, value), ignored);
    }
    MethodHandle element = MethodHandles.insertArguments(ELEMENT, 1, i); // args -> args[i]
    // call(builder, args) = next(builder, (value) args[i])
    MethodHandle call =
        MethodHandles.filterArguments(
            next.asType(MethodType.methodType(b, b, Object.class)), 1, element);
    MethodHandle test =
        MethodHandles.dropArguments(MethodHandles.filterReturnValue(element, NON_NULL), 0, b);
    MethodHandle skip = MethodHandles.dropArguments(MethodHandles.identity(b), 1, Object[].class);
    return MethodHandles.guardWithTest(test, call, skip);
  }
}
