package dev.stowage.beam.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.ItemTooLargeException;
import dev.stowage.RetryPolicy;
import dev.stowage.item.Item;
import dev.stowage.migrate.Migrator;
import dev.stowage.overflow.StoredOverflow;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.StoredItems;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;

/**
 * Turns stored items into what verification compares, keyed by {@link KeyText}: for each item
 * {@code "S" + digest} (a source item, digested as the target should hold it) or {@code "T" +
 * digest} (a target item), with {@link Migrator#digest}. For source items it also emits, for each
 * target index the item belongs in ({@link IndexLayout#holds} its target form), an entry {@code key
 * + "#" + index} → {@code "S"}; {@link #indexEntries} turns the target's index segments into the
 * same form, {@code "T"}.
 */
public final class DigestFn extends DoFn<Item, KV<String, String>> {
  private static final long serialVersionUID = 1L;
  private final MigrationSides sides;
  private final Mode mode;
  private transient MigrationSides.Both both;

  /** What the items are. */
  public enum Mode {
    /** Source items: digests and the index entries the target should have. */
    SOURCE,
    /** Target items: digests. */
    TARGET,
    /** Items read from one of the target's index segments: one index entry each. */
    TARGET_INDEX
  }

  private DigestFn(MigrationSides sides, Mode mode) {
    this.sides = sides;
    this.mode = mode;
  }

  /** Digests of source or target items. */
  public static DigestFn items(MigrationSides sides, boolean source) {
    return new DigestFn(sides, source ? Mode.SOURCE : Mode.TARGET);
  }

  /** Index entries of items read from the segments of the target's index {@code index}. */
  public static DoFn<Item, KV<String, String>> indexEntries(MigrationSides sides, String index) {
    return new IndexEntriesFn(sides, index);
  }

  @Setup
  public void setup() {
    both = sides.open();
  }

  @ProcessElement
  public void process(@Element Item item, OutputReceiver<KV<String, String>> out) {
    Migrator m = both.migrator();
    String key = KeyText.of(m.keyOf(item));
    boolean source = mode == Mode.SOURCE;
    out.output(KV.of(key, (source ? "S" : "T") + m.digest(item, source)));
    if (source) {
      Item target = asTarget(item);
      if (target != null) {
        for (IndexLayout ix : m.targetLayout().indexes()) {
          if (ix.holds(target)) {
            out.output(KV.of(key + "#" + ix.name(), "S"));
          }
        }
      }
    }
  }

  /** The item as the target should hold it, overflowed attributes restored; null if unreadable. */
  private Item asTarget(Item stored) {
    Migrator m = both.migrator();
    Item whole = stored;
    try {
      if (StoredOverflow.hasOverflow(stored)) {
        if (both.source().blobs() == null) {
          return null;
        }
        whole =
            RetryPolicy.DEFAULT.call(
                () ->
                    StoredOverflow.of(both.source().blobs())
                        .restore(m.sourceLayout().ref(), stored));
      }
      return StoredItems.withIndexValues(
          m.targetSpec(), both.target().driver().limits(m.targetLayout()), whole);
    } catch (InvalidRequestException | ItemTooLargeException | dev.stowage.IntegrityException e) {
      return null;
    }
  }

  @Teardown
  public void teardown() {
    if (both != null) {
      both.close();
    }
  }

  private static final class IndexEntriesFn extends DoFn<Item, KV<String, String>> {
    private static final long serialVersionUID = 1L;
    private final MigrationSides sides;
    private final String index;
    private transient MigrationSides.Both both;

    IndexEntriesFn(MigrationSides sides, String index) {
      this.sides = sides;
      this.index = index;
    }

    @Setup
    public void setup() {
      both = sides.open();
    }

    @ProcessElement
    public void process(@Element Item item, OutputReceiver<KV<String, String>> out) {
      out.output(KV.of(KeyText.of(both.migrator().keyOf(item)) + "#" + index, "T"));
    }

    @Teardown
    public void teardown() {
      if (both != null) {
        both.close();
      }
    }
  }
}
