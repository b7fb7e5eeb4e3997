package dev.stowage.typed;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Renames a field's stored attribute, and lists the names it had before so that items written under
 * an old name still read.
 *
 * <pre>{@code
 * record User(@PartitionKey String id, @Attribute(value = "fullName", aliases = "name") String name) {}
 * }</pre>
 *
 * <p>Reading takes the attribute under its current name, else the first alias present. Writing
 * stores the current name only, so a put of an item read under an alias moves the value.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.RECORD_COMPONENT})
public @interface Attribute {
  /** The stored attribute name; empty for the field's own name. */
  String value() default "";

  /** Earlier attribute names, tried in order when the current one is absent. */
  String[] aliases() default {};
}
