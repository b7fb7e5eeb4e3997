/**
 * The driver SPI: the small set of primitive operations a backend implements on already-encoded
 * items. Everything portable (codecs, overflow, cursors, conditions, updates, idempotency, batch
 * chunking and retries, delete-by-index) lives once in Stowage's core above this interface.
 *
 * <p>Drivers see items whose attribute values are still {@link dev.stowage.item.AttributeValue}s,
 * but after encoding: compressed or encrypted attributes are binary envelopes, attributes that
 * overflowed are replaced by a pointer, and every secondary index is represented by two synthesized
 * binary attributes (see {@link dev.stowage.spi.IndexLayout}). Driver authors: run the conformance
 * kit in {@code sdk-testkit} against your driver and its real emulator.
 */
package dev.stowage.spi;
