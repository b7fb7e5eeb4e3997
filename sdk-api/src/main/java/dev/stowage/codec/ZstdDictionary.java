package dev.stowage.codec;

import com.github.luben.zstd.ZstdDictTrainer;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A zstd dictionary with the id that envelopes compressed with it record. Small values of a
 * repetitive shape (JSON documents of one schema) compress several times better with a dictionary
 * trained on samples of them.
 *
 * <p>The id is chosen by the application and must keep meaning the same content forever: an
 * envelope names only the id, and reading it needs the same dictionary. To replace a dictionary,
 * give the new one a new id and keep the old one configured for reading ({@link
 * Codecs.Builder#readDictionary}) until no value uses it. Content may be a trained dictionary or
 * any raw bytes (zstd then uses them as shared history).
 *
 * <p>Immutable and thread-safe; the content is copied in and out.
 */
public final class ZstdDictionary {
  private final int id;
  private final byte[] content;

  private ZstdDictionary(int id, byte[] content) {
    this.id = id;
    this.content = content;
  }

  /**
   * A dictionary with the given id and content.
   *
   * @param id a positive id, stored in every envelope compressed with this dictionary
   * @param content the dictionary bytes, at least 8 (copied)
   * @throws IllegalArgumentException if the id is not positive or the content too short
   * @throws NullPointerException if content is null
   */
  public static ZstdDictionary of(int id, byte[] content) {
    Objects.requireNonNull(content, "content");
    if (id <= 0) {
      throw new IllegalArgumentException("dictionary id must be positive, was " + id);
    }
    if (content.length < 8) {
      throw new IllegalArgumentException(
          "dictionary content must be at least 8 bytes, was " + content.length);
    }
    return new ZstdDictionary(id, content.clone());
  }

  /**
   * Trains a dictionary on sample values with zstd's trainer.
   *
   * @param id the id to give it
   * @param samples representative serialised values (a few hundred or more work best)
   * @param maxSize the largest dictionary to produce, in bytes (16 KiB to 110 KiB is typical)
   * @throws IllegalArgumentException if the samples are too few or too uniform to train on
   */
  public static ZstdDictionary train(int id, List<byte[]> samples, int maxSize) {
    long total = 0;
    for (byte[] s : samples) {
      total += s.length;
    }
    if (total > Integer.MAX_VALUE / 2) {
      throw new IllegalArgumentException("too many sample bytes to train on: " + total);
    }
    ZstdDictTrainer trainer = new ZstdDictTrainer((int) total, maxSize);
    for (byte[] s : samples) {
      trainer.addSample(s);
    }
    byte[] dict;
    try {
      dict = trainer.trainSamples();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("zstd could not train a dictionary: " + e.getMessage(), e);
    }
    return of(id, dict);
  }

  /** The id envelopes record. */
  public int id() {
    return id;
  }

  /** A copy of the dictionary bytes. */
  public byte[] content() {
    return content.clone();
  }

  byte[] contentUnsafe() {
    return content;
  }

  /** Same id and content. */
  @Override
  public boolean equals(Object o) {
    return o instanceof ZstdDictionary d && d.id == id && Arrays.equals(d.content, content);
  }

  @Override
  public int hashCode() {
    return 31 * id + Arrays.hashCode(content);
  }

  @Override
  public String toString() {
    return "ZstdDictionary[id=" + id + ", " + content.length + " bytes]";
  }
}
