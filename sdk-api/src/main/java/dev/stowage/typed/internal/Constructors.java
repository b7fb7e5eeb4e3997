package dev.stowage.typed.internal;

import java.lang.invoke.CallSite;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.util.function.Function;

/**
 * Constructors with arguments as lambdas: {@link LambdaMetafactory} targets one functional
 * interface per arity (up to {@value #MAX}), so that building an instance is a plain call with no
 * method-handle spreading. Where the lambda cannot be defined (more arguments, or an application
 * module the internal interfaces are not visible to), {@link Handles#constructor} serves instead.
 */
final class Constructors {
  static final int MAX = 16;

  private Constructors() {}

  /** A constructor of 1 argument. */
  public interface A1 {
    Object make(Object a0);
  }

  /** A constructor of 2 arguments. */
  public interface A2 {
    Object make(Object a0, Object a1);
  }

  /** A constructor of 3 arguments. */
  public interface A3 {
    Object make(Object a0, Object a1, Object a2);
  }

  /** A constructor of 4 arguments. */
  public interface A4 {
    Object make(Object a0, Object a1, Object a2, Object a3);
  }

  /** A constructor of 5 arguments. */
  public interface A5 {
    Object make(Object a0, Object a1, Object a2, Object a3, Object a4);
  }

  /** A constructor of 6 arguments. */
  public interface A6 {
    Object make(Object a0, Object a1, Object a2, Object a3, Object a4, Object a5);
  }

  /** A constructor of 7 arguments. */
  public interface A7 {
    Object make(Object a0, Object a1, Object a2, Object a3, Object a4, Object a5, Object a6);
  }

  /** A constructor of 8 arguments. */
  public interface A8 {
    Object make(
        Object a0, Object a1, Object a2, Object a3, Object a4, Object a5, Object a6, Object a7);
  }

  /** A constructor of 9 arguments. */
  public interface A9 {
    Object make(
        Object a0,
        Object a1,
        Object a2,
        Object a3,
        Object a4,
        Object a5,
        Object a6,
        Object a7,
        Object a8);
  }

  /** A constructor of 10 arguments. */
  public interface A10 {
    Object make(
        Object a0,
        Object a1,
        Object a2,
        Object a3,
        Object a4,
        Object a5,
        Object a6,
        Object a7,
        Object a8,
        Object a9);
  }

  /** A constructor of 11 arguments. */
  public interface A11 {
    Object make(
        Object a0,
        Object a1,
        Object a2,
        Object a3,
        Object a4,
        Object a5,
        Object a6,
        Object a7,
        Object a8,
        Object a9,
        Object a10);
  }

  /** A constructor of 12 arguments. */
  public interface A12 {
    Object make(
        Object a0,
        Object a1,
        Object a2,
        Object a3,
        Object a4,
        Object a5,
        Object a6,
        Object a7,
        Object a8,
        Object a9,
        Object a10,
        Object a11);
  }

  /** A constructor of 13 arguments. */
  public interface A13 {
    Object make(
        Object a0,
        Object a1,
        Object a2,
        Object a3,
        Object a4,
        Object a5,
        Object a6,
        Object a7,
        Object a8,
        Object a9,
        Object a10,
        Object a11,
        Object a12);
  }

  /** A constructor of 14 arguments. */
  public interface A14 {
    Object make(
        Object a0,
        Object a1,
        Object a2,
        Object a3,
        Object a4,
        Object a5,
        Object a6,
        Object a7,
        Object a8,
        Object a9,
        Object a10,
        Object a11,
        Object a12,
        Object a13);
  }

  /** A constructor of 15 arguments. */
  public interface A15 {
    Object make(
        Object a0,
        Object a1,
        Object a2,
        Object a3,
        Object a4,
        Object a5,
        Object a6,
        Object a7,
        Object a8,
        Object a9,
        Object a10,
        Object a11,
        Object a12,
        Object a13,
        Object a14);
  }

  /** A constructor of 16 arguments. */
  public interface A16 {
    Object make(
        Object a0,
        Object a1,
        Object a2,
        Object a3,
        Object a4,
        Object a5,
        Object a6,
        Object a7,
        Object a8,
        Object a9,
        Object a10,
        Object a11,
        Object a12,
        Object a13,
        Object a14,
        Object a15);
  }

  /** The constructor as a function of its argument array. */
  static Function<Object[], Object> of(MethodHandles.Lookup lookup, Constructor<?> c) {
    int n = c.getParameterCount();
    if (n >= 1 && n <= MAX) {
      try {
        MethodHandle mh = lookup.unreflectConstructor(c);
        Class<?> face = Class.forName(Constructors.class.getName() + "$A" + n);
        CallSite site =
            LambdaMetafactory.metafactory(
                lookup,
                "make",
                MethodType.methodType(face),
                MethodType.genericMethodType(n),
                mh,
                mh.type().wrap());
        return spread(n, site.getTarget().invoke());
      } catch (Throwable e) {
        // not definable here: the method handle below
      }
    }
    return Handles.constructor(lookup, c);
  }

  private static Function<Object[], Object> spread(int n, Object f) {
    switch (n) {
      case 1:
        {
          A1 g = (A1) f;
          return a -> g.make(a[0]);
        }
      case 2:
        {
          A2 g = (A2) f;
          return a -> g.make(a[0], a[1]);
        }
      case 3:
        {
          A3 g = (A3) f;
          return a -> g.make(a[0], a[1], a[2]);
        }
      case 4:
        {
          A4 g = (A4) f;
          return a -> g.make(a[0], a[1], a[2], a[3]);
        }
      case 5:
        {
          A5 g = (A5) f;
          return a -> g.make(a[0], a[1], a[2], a[3], a[4]);
        }
      case 6:
        {
          A6 g = (A6) f;
          return a -> g.make(a[0], a[1], a[2], a[3], a[4], a[5]);
        }
      case 7:
        {
          A7 g = (A7) f;
          return a -> g.make(a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
        }
      case 8:
        {
          A8 g = (A8) f;
          return a -> g.make(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
        }
      case 9:
        {
          A9 g = (A9) f;
          return a -> g.make(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]);
        }
      case 10:
        {
          A10 g = (A10) f;
          return a -> g.make(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9]);
        }
      case 11:
        {
          A11 g = (A11) f;
          return a -> g.make(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10]);
        }
      case 12:
        {
          A12 g = (A12) f;
          return a ->
              g.make(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]);
        }
      case 13:
        {
          A13 g = (A13) f;
          return a ->
              g.make(
                  a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12]);
        }
      case 14:
        {
          A14 g = (A14) f;
          return a ->
              g.make(
                  a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12],
                  a[13]);
        }
      case 15:
        {
          A15 g = (A15) f;
          return a ->
              g.make(
                  a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12],
                  a[13], a[14]);
        }
      case 16:
        {
          A16 g = (A16) f;
          return a ->
              g.make(
                  a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12],
                  a[13], a[14], a[15]);
        }
      default:
        throw new IllegalArgumentException("arity " + n);
    }
  }
}
