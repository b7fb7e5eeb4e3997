package dev.stowage.typed;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Puts a field into a secondary index, as one column of its partition part or of its sort part. An
 * index over several columns is declared on each of its fields; {@link #position()} orders the
 * columns within a part (ties keep declaration order). A field may take part in several indexes.
 *
 * <pre>{@code
 * record Order(@PartitionKey String tenant, @SortKey Instant placedAt,
 *              @Indexed(name = "byStatus") Status status,
 *              @Indexed(name = "byStatus", sort = true) Instant due) {}
 * }</pre>
 *
 * <p>An indexed field's stored form must be a string, number or binary value, and it may be neither
 * compressed nor encrypted.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.RECORD_COMPONENT})
@Repeatable(Indexed.List.class)
public @interface Indexed {
  /** The index name (see {@link dev.stowage.IndexSpec} for the rules). */
  String name();

  /** True for a column of the index's sort part, false for its partition part. */
  boolean sort() default false;

  /** The column's place within its part, lowest first. */
  int position() default 0;

  /** Holds repeated {@link Indexed} annotations. */
  @Documented
  @Retention(RetentionPolicy.RUNTIME)
  @Target({ElementType.FIELD, ElementType.RECORD_COMPONENT})
  @interface List {
    /** The annotations. */
    Indexed[] value();
  }
}
