package dev.stowage.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Says which backend a {@code Stowage} parameter of a test runs on, when the test class asks for
 * more than one in {@link WithEmulators}.
 *
 * <pre>{@code
 * @Test
 * void copies(@On(Backend.DYNAMODB) Stowage aws, @On(Backend.AZURE) Stowage azure) { ... }
 * }</pre>
 */
@Documented
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
public @interface On {
  /**
   * The backend.
   *
   * @return the backend the parameter's store runs on
   */
  Backend value();
}
