package dev.stowage.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Starts the emulators of the given backends before a test class runs, and gives its tests a ready
 * {@code Stowage} per backend. The one line a user's integration test needs:
 *
 * <pre>{@code
 * @WithEmulators({Backend.DYNAMODB, Backend.DATASTORE, Backend.AZURE})
 * class OrdersIT {
 *   @Test
 *   void savesAnOrder(@On(Backend.DYNAMODB) Stowage store) { ... }
 * }
 * }</pre>
 *
 * <p>Each emulator runs on free ports and is shared by every test of the run (one test JVM): the
 * first class that asks starts it, and it stops when the test run ends (a JVM shutdown hook is the
 * backstop; a child process also exits by itself when the test JVM dies). An emulator that cannot
 * start fails the class with an {@link EmulatorStartException} saying what to install; nothing is
 * skipped.
 *
 * <p>Test methods and lifecycle methods can declare parameters of these types:
 *
 * <ul>
 *   <li>{@code dev.stowage.Stowage}: a store on the backend (the class's only backend, or the one
 *       named by {@link On}), with the backend's blob store when its module is on the class path,
 *       in a namespace of its own: every test method gets a fresh one, so tests never see each
 *       other's tables; {@code @BeforeAll} and {@code @AfterAll} methods share one per class. The
 *       extension closes it after the test (or class).
 *   <li>{@link Emulators}: the running emulators, for native clients, endpoints and {@link
 *       Emulators#builder(Backend)} to configure a store (codecs, keys) yourself.
 *   <li>{@link DynamoDbLocal}, {@link S3Emulator}, {@link DatastoreEmulator}, {@link Azurite}: one
 *       emulator.
 * </ul>
 */
@Documented
@Inherited
@Target({ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(EmulatorExtension.class)
public @interface WithEmulators {
  /**
   * The backends whose emulators the tests need.
   *
   * @return the backends, at least one
   */
  Backend[] value();
}
