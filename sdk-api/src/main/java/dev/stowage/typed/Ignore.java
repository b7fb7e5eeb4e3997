package dev.stowage.typed;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Leaves a field out of the stored item. On reading, a record component or constructor parameter
 * that is ignored receives {@code null}, {@code 0}, {@code false} or {@code Optional.empty()}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.RECORD_COMPONENT})
public @interface Ignore {}
