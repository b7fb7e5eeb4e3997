package dev.stowage.typed;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Stores a field through an application's own {@link AttributeConverter} instead of the built-in
 * mapping. The converter class needs a public no-argument constructor; it is instantiated once per
 * mapped class.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.RECORD_COMPONENT})
public @interface Convert {
  /** The converter for the field's type. */
  @SuppressWarnings("rawtypes")
  Class<? extends AttributeConverter> value();
}
