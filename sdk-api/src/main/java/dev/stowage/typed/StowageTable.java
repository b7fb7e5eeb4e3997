package dev.stowage.typed;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the table a class is stored in, for {@code Stowage.table(Class)} and {@link
 * TypedSchema#spec()}. Without it the table name is the class's simple name in lower case.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE})
public @interface StowageTable {
  /** The logical table name (see {@link dev.stowage.TableSpec} for the rules). */
  String value();
}
