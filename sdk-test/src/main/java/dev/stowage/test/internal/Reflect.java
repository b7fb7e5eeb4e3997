package dev.stowage.test.internal;

import dev.stowage.test.EmulatorStartException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * Calls into Stowage's driver modules by name. They are optional dependencies of sdk-test (a user
 * has only the ones they use), and they use sdk-test in their own tests, so it cannot compile
 * against them.
 */
public final class Reflect {
  private Reflect() {}

  /** True if {@code className} can be loaded. */
  public static boolean present(String className) {
    try {
      Class.forName(className, false, Reflect.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /** Fails with {@code hint} unless {@code className} can be loaded. */
  public static void require(String className, String hint) {
    if (!present(className)) {
      throw new EmulatorStartException(className + " is not on the test class path. " + hint);
    }
  }

  /** Calls the public static method {@code name} of {@code className}. */
  public static Object callStatic(String className, String name, Class<?>[] types, Object... args) {
    try {
      Class<?> c = Class.forName(className, true, Reflect.class.getClassLoader());
      return invoke(c.getMethod(name, types), null, args);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot call " + className + "." + name, e);
    }
  }

  /** Calls the public method {@code name} on {@code target}. */
  public static Object call(Object target, String name, Class<?>[] types, Object... args) {
    try {
      return invoke(target.getClass().getMethod(name, types), target, args);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot call " + target.getClass().getName() + "." + name, e);
    }
  }

  /** Loads a class that {@link #require} checked. */
  public static Class<?> type(String className) {
    try {
      return Class.forName(className, false, Reflect.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Object invoke(Method m, Object target, Object[] args)
      throws IllegalAccessException {
    try {
      return m.invoke(target, args);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(e.getCause());
    }
  }
}
