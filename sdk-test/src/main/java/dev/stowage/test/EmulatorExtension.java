package dev.stowage.test;

import dev.stowage.Stowage;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The JUnit Jupiter extension behind {@link WithEmulators}: starts the class's emulators before its
 * tests and resolves {@code Stowage}, {@link Emulators} and emulator parameters. Use it through the
 * annotation; registering it with {@code @ExtendWith} alone starts nothing until a parameter asks
 * (with {@link On} on each {@code Stowage} parameter).
 *
 * <p>A {@code Stowage} parameter is one store per backend and extension context: a test method, its
 * {@code @BeforeEach} and {@code @AfterEach} methods share one, in a namespace of its own;
 * {@code @BeforeAll} and {@code @AfterAll} methods share another. The extension closes them when
 * the test (or class) ends.
 */
public final class EmulatorExtension
    implements BeforeAllCallback, AfterEachCallback, AfterAllCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(EmulatorExtension.class);
  private static final List<Class<?>> HANDLES =
      List.of(
          Emulators.class,
          DynamoDbLocal.class,
          S3Emulator.class,
          DatastoreEmulator.class,
          Azurite.class);

  /** Created by JUnit. */
  public EmulatorExtension() {}

  @Override
  public void beforeAll(ExtensionContext context) {
    for (Backend b : backends(context)) {
      Emulators.shared().start(b);
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == Stowage.class || HANDLES.contains(type);
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    Emulators emulators = Emulators.shared();
    if (type == Emulators.class) {
      return emulators;
    }
    if (type == DynamoDbLocal.class) {
      return emulators.dynamoDb();
    }
    if (type == S3Emulator.class) {
      return emulators.s3();
    }
    if (type == DatastoreEmulator.class) {
      return emulators.datastore();
    }
    if (type == Azurite.class) {
      return emulators.azurite();
    }
    Backend backend = backendOf(parameter, context);
    return stores(context).computeIfAbsent(backend, emulators::stowage);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    close(context);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    close(context);
  }

  private static Backend backendOf(ParameterContext parameter, ExtensionContext context) {
    Optional<On> on = parameter.findAnnotation(On.class);
    if (on.isPresent()) {
      return on.get().value();
    }
    Set<Backend> backends = backends(context);
    if (backends.size() == 1) {
      return backends.iterator().next();
    }
    throw new ParameterResolutionException(
        "parameter "
            + parameter.getParameter().getName()
            + " of "
            + parameter.getDeclaringExecutable()
            + ": say which backend with @On(Backend.X); the class asks for "
            + (backends.isEmpty() ? "none (@WithEmulators)" : backends.toString()));
  }

  // The nearest @WithEmulators: on the test class, or on an enclosing class of a @Nested one.
  private static Set<Backend> backends(ExtensionContext context) {
    for (ExtensionContext c = context; c != null; c = c.getParent().orElse(null)) {
      Optional<WithEmulators> a =
          c.getTestClass().flatMap(t -> AnnotationSupport.findAnnotation(t, WithEmulators.class));
      if (a.isPresent()) {
        return Emulators.setOf(a.get().value());
      }
    }
    return Emulators.setOf(new Backend[0]);
  }

  private static Map<Backend, Stowage> stores(ExtensionContext context) {
    return context
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(
            Stores.class, k -> new Stores(new EnumMap<>(Backend.class)), Stores.class)
        .byBackend();
  }

  private static void close(ExtensionContext context) {
    Stores stores = context.getStore(NAMESPACE).remove(Stores.class, Stores.class);
    if (stores == null) {
      return;
    }
    List<RuntimeException> failures = new ArrayList<>();
    for (Stowage s : stores.byBackend().values()) {
      try {
        s.close();
      } catch (RuntimeException e) {
        failures.add(e);
      }
    }
    if (!failures.isEmpty()) {
      throw failures.get(0);
    }
  }

  private record Stores(Map<Backend, Stowage> byBackend) {}
}
