package dev.stowage.typed;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a numeric field ({@code long}, {@code int}, their boxes, {@code BigInteger} or {@code
 * BigDecimal}) as the optimistic-locking version: the table spec's {@linkplain
 * dev.stowage.TableSpec#versionAttribute() version attribute}. A put succeeds only if the stored
 * item's version equals the object's (zero or null: only if no item is stored) and returns the
 * object with the incremented version.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.RECORD_COMPONENT})
public @interface Version {}
