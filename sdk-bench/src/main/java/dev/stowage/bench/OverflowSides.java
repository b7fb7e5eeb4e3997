package dev.stowage.bench;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.overflow.BlobStore;
import dev.stowage.overflow.MemoryBlobStore;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The two sides of the overflow comparisons, each over its own fresh {@link MemoryDriver} and
 * {@link MemoryBlobStore}: Stowage with overflow, and the same bytes written by hand. Items are
 * {@link #document}s keyed by {@code pk} whose binary {@code body} is the large part. Not
 * thread-safe.
 */
public final class OverflowSides {
  private OverflowSides() {}

  /** Writes an item and reads it back. */
  public interface Side {
    /** Stores the item, replacing any with its key. */
    void put(Item item);

    /** Reads the item with this partition key. */
    Item get(String pk);

    /** The number of blobs stored. */
    int blobCount();
  }

  /** A document item: small attributes plus a large binary body (wrapped, not copied). */
  public static Item document(String id, byte[] body) {
    return Item.builder()
        .put("pk", id)
        .put("title", "Quarterly report " + id)
        .put("owner", "ada@example.org")
        .put("bytes", body.length)
        .put("body", Bytes.wrap(body))
        .build();
  }

  /** Stowage on the in-memory driver (DynamoDB-like 400 KB limit) with an in-memory blob store. */
  public static Side stowage() {
    return stowage(new MemoryBlobStore());
  }

  /** Stowage on the in-memory driver with the given blob store. */
  public static Side stowage(BlobStore blobs) {
    Stowage stowage = Stowage.builder(MemoryDriver.create()).blobStore(blobs).build();
    Table table =
        stowage.ensureTable(
            TableSpec.builder("docs", KeySchema.of("pk", AttributeType.STRING)).build());
    return new Side() {
      @Override
      public void put(Item item) {
        table.put(item);
      }

      @Override
      public Item get(String pk) {
        return table.get(Key.of(pk)).orElseThrow();
      }

      @Override
      public int blobCount() {
        return count(blobs);
      }
    };
  }

  /**
   * By hand: the body array put as a blob under a key derived from the item key, then the item with
   * the blob key in place of the body put through the driver SPI; reading does the reverse. No
   * digest, no envelope, no serialisation: the least any overflow scheme must do.
   */
  public static Side byHand() {
    return byHand(false);
  }

  /**
   * By hand as {@link #byHand()}, optionally with the integrity check Stowage makes: the body's
   * SHA-256 stored in the item on put and verified on get.
   */
  public static Side byHand(boolean sha256) {
    return byHand(sha256, new MemoryBlobStore());
  }

  /** By hand as {@link #byHand(boolean)}, with the given blob store. */
  public static Side byHand(boolean sha256, BlobStore blobs) {
    MemoryDriver driver = MemoryDriver.create();
    TableLayout layout =
        new TableLayout(
            new TableRef("", "docs"), KeySchema.of("pk", AttributeType.STRING), List.of());
    driver.ensureTable(layout);
    return new Side() {
      @Override
      public void put(Item item) {
        String blobKey = "by-hand/" + item.getString("pk");
        Bytes body = item.getBinary("body");
        blobs.put(blobKey, new BufferStream(body.asReadOnlyBuffer()), body.size());
        Map<String, AttributeValue> stored = new LinkedHashMap<>(item.attributes());
        stored.put("body", AttributeValue.of(blobKey));
        if (sha256) {
          stored.put("sha256", AttributeValue.of(Bytes.wrap(digest(body.asReadOnlyBuffer()))));
        }
        driver.put(layout, StoredItems.of(stored), Expectation.ANY, false);
      }

      @Override
      public Item get(String pk) {
        Item read = driver.get(layout, Key.of(pk), false).orElseThrow().item();
        byte[] body = blobs.get(read.getString("body")).orElseThrow();
        Map<String, AttributeValue> out = new LinkedHashMap<>(read.attributes());
        if (sha256) {
          Bytes expected = read.getBinary("sha256");
          if (!expected.equals(Bytes.wrap(digest(ByteBuffer.wrap(body))))) {
            throw new IllegalStateException("blob digest mismatch");
          }
          out.remove("sha256");
        }
        out.put("body", AttributeValue.of(Bytes.wrap(body)));
        return Item.of(out);
      }

      @Override
      public int blobCount() {
        return count(blobs);
      }
    };
  }

  private static int count(BlobStore blobs) {
    try (var s = blobs.list("")) {
      return (int) s.count();
    }
  }

  private static byte[] digest(ByteBuffer data) {
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      d.update(data);
      return d.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JVM lacks SHA-256", e);
    }
  }

  /** Streams a buffer's bytes without copying them first. */
  private static final class BufferStream extends InputStream {
    private final ByteBuffer buffer;

    BufferStream(ByteBuffer buffer) {
      this.buffer = buffer;
    }

    @Override
    public int read() {
      return buffer.hasRemaining() ? buffer.get() & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (len == 0) {
        return 0;
      }
      if (!buffer.hasRemaining()) {
        return -1;
      }
      int n = Math.min(len, buffer.remaining());
      buffer.get(b, off, n);
      return n;
    }
  }
}
