package dev.stowage.internal;

import java.util.Locale;

/** The driver operations metrics are kept for, named as {@link dev.stowage.spi.StorageDriver}. */
public enum Op {
  GET("get"),
  BATCH_GET("batchGet"),
  PUT("put"),
  DELETE("delete"),
  BATCH_WRITE("batchWrite"),
  QUERY("query"),
  SCAN("scan"),
  TRANSACT_WRITE("transactWrite"),
  UPDATE_NATIVE("updateNative");

  static final Op[] ALL = values();

  private final String tag;

  Op(String tag) {
    this.tag = tag;
  }

  /** The driver method's name, as metrics tag it. */
  public String tag() {
    return tag;
  }

  /** True for operations that read only. */
  public boolean reads() {
    return this == GET || this == BATCH_GET || this == QUERY || this == SCAN;
  }

  @Override
  public String toString() {
    return tag.toLowerCase(Locale.ROOT);
  }
}
