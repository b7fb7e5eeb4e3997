package dev.stowage.typed.internal;

import java.lang.invoke.CallSite;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Turns a class's accessors, setters and constructors into functional objects once, when the class
 * is mapped, so that mapping an instance never reflects. Methods become lambdas through {@link
 * LambdaMetafactory} (as fast as hand-written calls once the JIT has seen them); fields and
 * constructors with parameters, which it cannot target, become method handles adapted to {@code
 * Object} and called with {@code invokeExact}.
 */
final class Handles {
  private Handles() {}

  /**
   * A lookup with private access to {@code type}: through Stowage's own module, which needs the
   * application's package open to {@code dev.stowage}, or through {@code caller}, a lookup the
   * application made in its own module (then nothing needs to be opened).
   *
   * @param caller the application's lookup, or null
   */
  static MethodHandles.Lookup lookup(Class<?> type, MethodHandles.Lookup caller) {
    Handles.class.getModule().addReads(type.getModule());
    if (caller != null) {
      try {
        return MethodHandles.privateLookupIn(type, caller);
      } catch (IllegalAccessException | RuntimeException e) {
        throw new IllegalArgumentException(
            "the lookup given to TypedSchema.Builder.lookup (of "
                + caller.lookupClass().getName()
                + ") has no private access to it: pass MethodHandles.lookup() from a class of"
                + " module "
                + type.getModule().getName()
                + " ("
                + e.getMessage()
                + ")",
            e);
      }
    }
    try {
      return MethodHandles.privateLookupIn(type, MethodHandles.lookup());
    } catch (IllegalAccessException e) {
      throw new IllegalArgumentException(
          "its package "
              + type.getPackageName()
              + " is not open to module dev.stowage: add 'opens "
              + type.getPackageName()
              + " to dev.stowage;' to the module declaration of "
              + type.getModule().getName()
              + ", or pass MethodHandles.lookup() from that module to"
              + " TypedSchema.builder(..).lookup(..)",
          e);
    }
  }

  static Function<Object, Object> getter(MethodHandles.Lookup lookup, Method m) {
    MethodHandle mh = unreflect(lookup, m);
    try {
      CallSite site =
          LambdaMetafactory.metafactory(
              lookup,
              "apply",
              MethodType.methodType(Function.class),
              MethodType.methodType(Object.class, Object.class),
              mh,
              mh.type().wrap());
      @SuppressWarnings("unchecked")
      Function<Object, Object> f = (Function<Object, Object>) site.getTarget().invoke();
      return f;
    } catch (Throwable e) {
      return viaHandle(mh);
    }
  }

  static Function<Object, Object> getter(MethodHandles.Lookup lookup, Field f) {
    try {
      return viaHandle(lookup.unreflectGetter(f));
    } catch (IllegalAccessException e) {
      throw new IllegalArgumentException("field " + f.getName() + " cannot be read", e);
    }
  }

  /** A setter or builder method: returns what the method returns (null for void). */
  static BiFunction<Object, Object, Object> setter(MethodHandles.Lookup lookup, Method m) {
    MethodHandle mh = unreflect(lookup, m);
    try {
      if (m.getReturnType() == void.class) {
        CallSite site =
            LambdaMetafactory.metafactory(
                lookup,
                "accept",
                MethodType.methodType(BiConsumer.class),
                MethodType.methodType(void.class, Object.class, Object.class),
                mh,
                mh.type().wrap().changeReturnType(void.class));
        @SuppressWarnings("unchecked")
        BiConsumer<Object, Object> c = (BiConsumer<Object, Object>) site.getTarget().invoke();
        return (o, v) -> {
          c.accept(o, v);
          return null;
        };
      }
      CallSite site =
          LambdaMetafactory.metafactory(
              lookup,
              "apply",
              MethodType.methodType(BiFunction.class),
              MethodType.methodType(Object.class, Object.class, Object.class),
              mh,
              mh.type().wrap());
      @SuppressWarnings("unchecked")
      BiFunction<Object, Object, Object> f =
          (BiFunction<Object, Object, Object>) site.getTarget().invoke();
      return f;
    } catch (Throwable e) {
      MethodHandle g = mh.asType(MethodType.methodType(Object.class, Object.class, Object.class));
      return (o, v) -> {
        try {
          return g.invokeExact(o, v);
        } catch (RuntimeException | Error x) {
          throw x;
        } catch (Throwable x) {
          throw new IllegalStateException(x);
        }
      };
    }
  }

  static BiFunction<Object, Object, Object> setter(MethodHandles.Lookup lookup, Field f) {
    try {
      MethodHandle g =
          lookup
              .unreflectSetter(f)
              .asType(MethodType.methodType(void.class, Object.class, Object.class));
      return (o, v) -> {
        try {
          g.invokeExact(o, v);
          return null;
        } catch (RuntimeException | Error x) {
          throw x;
        } catch (Throwable x) {
          throw new IllegalStateException(x);
        }
      };
    } catch (IllegalAccessException e) {
      throw new IllegalArgumentException("field " + f.getName() + " cannot be set", e);
    }
  }

  /** A no-argument constructor or static factory method. */
  static Supplier<Object> supplier(MethodHandles.Lookup lookup, MethodHandle mh) {
    try {
      CallSite site =
          LambdaMetafactory.metafactory(
              lookup,
              "get",
              MethodType.methodType(Supplier.class),
              MethodType.methodType(Object.class),
              mh,
              mh.type().wrap());
      @SuppressWarnings("unchecked")
      Supplier<Object> s = (Supplier<Object>) site.getTarget().invoke();
      return s;
    } catch (Throwable e) {
      MethodHandle g = mh.asType(MethodType.methodType(Object.class));
      return () -> {
        try {
          return g.invokeExact();
        } catch (RuntimeException | Error x) {
          throw x;
        } catch (Throwable x) {
          throw new IllegalStateException(x);
        }
      };
    }
  }

  static Supplier<Object> supplier(MethodHandles.Lookup lookup, Constructor<?> c) {
    try {
      return supplier(lookup, lookup.unreflectConstructor(c));
    } catch (IllegalAccessException e) {
      throw new IllegalArgumentException("constructor " + c + " cannot be called", e);
    }
  }

  static Supplier<Object> supplier(MethodHandles.Lookup lookup, Method staticFactory) {
    return supplier(lookup, unreflect(lookup, staticFactory));
  }

  /** A constructor called with its arguments in an array. */
  static Function<Object[], Object> constructor(MethodHandles.Lookup lookup, Constructor<?> c) {
    try {
      MethodHandle g =
          lookup
              .unreflectConstructor(c)
              .asSpreader(Object[].class, c.getParameterCount())
              .asType(MethodType.methodType(Object.class, Object[].class));
      return args -> {
        try {
          return g.invokeExact(args);
        } catch (RuntimeException | Error x) {
          throw x;
        } catch (Throwable x) {
          throw new IllegalStateException(x);
        }
      };
    } catch (IllegalAccessException e) {
      throw new IllegalArgumentException("constructor " + c + " cannot be called", e);
    }
  }

  private static MethodHandle unreflect(MethodHandles.Lookup lookup, Method m) {
    try {
      return lookup.unreflect(m);
    } catch (IllegalAccessException e) {
      throw new IllegalArgumentException("method " + m.getName() + " cannot be called", e);
    }
  }

  private static Function<Object, Object> viaHandle(MethodHandle mh) {
    MethodHandle g = mh.asType(MethodType.methodType(Object.class, Object.class));
    return o -> {
      try {
        return g.invokeExact(o);
      } catch (RuntimeException | Error x) {
        throw x;
      } catch (Throwable x) {
        throw new IllegalStateException(x);
      }
    };
  }
}
