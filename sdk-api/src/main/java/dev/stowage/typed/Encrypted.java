package dev.stowage.typed;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Stores the field's attribute encrypted with the store's keys (Tink AEAD, bound to table, key and
 * attribute name). Values written before the field was marked still read. Not allowed on key,
 * indexed or version fields: a class that tries fails when its table is opened.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.RECORD_COMPONENT})
public @interface Encrypted {}
