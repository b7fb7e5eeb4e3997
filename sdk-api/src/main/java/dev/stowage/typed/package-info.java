/**
 * Typed items: an application's own records and classes stored as Stowage items, mapped by
 * annotations ({@link dev.stowage.typed.PartitionKey}, {@link dev.stowage.typed.SortKey}, {@link
 * dev.stowage.typed.Indexed}, {@link dev.stowage.typed.Compressed}, {@link
 * dev.stowage.typed.Encrypted}, {@link dev.stowage.typed.Version}, {@link
 * dev.stowage.typed.Attribute}, {@link dev.stowage.typed.Ignore}, {@link
 * dev.stowage.typed.Convert}).
 *
 * <p>{@link dev.stowage.typed.TypedSchema} derives the mapping and the table spec from a class
 * once; {@link dev.stowage.typed.TypedTable} layers typed reads, writes, conditions, updates,
 * queries and pages on an untyped {@link dev.stowage.Table}. The stored form of every supported
 * Java type is documented in docs/typed-items.md and is the same on every backend.
 */
package dev.stowage.typed;
