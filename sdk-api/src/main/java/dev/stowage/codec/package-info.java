/**
 * Per-attribute compression (zstd) and encryption (Tink AEAD) with a self-describing envelope.
 *
 * <p>{@link dev.stowage.codec.Codecs} is the entry point the core calls for every attribute with an
 * encoding policy; {@link dev.stowage.codec.KeyProvider}, {@link dev.stowage.codec.ZstdDictionary}
 * and {@link dev.stowage.codec.PlaintextPolicy} configure it. The envelope format is specified in
 * docs/FORMAT.md and pinned by golden vectors.
 */
package dev.stowage.codec;
