package dev.stowage.cli.internal;

import static dev.stowage.item.AttributeType.STRING;

import dev.stowage.IntegrityException;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.migrate.CountingBlobStore;
import dev.stowage.query.ReadOptions;
import java.util.Random;

/** The tour's steps about how values are stored: codecs and overflow. */
final class TourStorageSteps {
  private TourStorageSteps() {}

  static void codecs(Tour t) {
    TableSpec spec =
        TableSpec.builder("patients", KeySchema.of("id", STRING))
            .compressed("notes")
            .encrypted("ssn")
            .compressed("history")
            .encrypted("history")
            .build();
    Table patients = t.store().ensureTable(spec);
    StringBuilder notes = new StringBuilder();
    for (int i = 0; i < 400; i++) {
      notes
          .append("Visit ")
          .append(i % 12 + 1)
          .append(": blood pressure normal, no new symptoms. ");
    }
    StringBuilder history = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      history.append("2026-").append(i % 12 + 1).append(": routine check-up; ");
    }
    Item plain =
        Item.builder()
            .put("id", "p-17")
            .put("name", "Ada")
            .put("notes", notes.toString())
            .put("ssn", "123-45-6789")
            .put("history", history.toString())
            .build();
    long logical = t.driver().limits().sizeModel().itemBytes(plain);
    patients.put(plain);
    Item stored = t.stored(patients, Key.of("p-17"));
    long storedBytes = t.driver().limits().sizeModel().itemBytes(stored);
    t.say(
        "notes is compressed, ssn encrypted, history both (zstd, then Tink AES-256-GCM with a key"
            + " generated in-process).");
    t.say(
        "item as written: "
            + ProgressBar.bytes(logical)
            + "; as stored: "
            + ProgressBar.bytes(storedBytes)
            + String.format(" (%.0f%% smaller)", 100.0 * (logical - storedBytes) / logical));
    t.say("stored 'notes':   " + describe(stored.get("notes")));
    t.say("stored 'ssn':     " + describe(stored.get("ssn")));
    t.say("stored 'history': " + describe(stored.get("history")));
    Item read = patients.get(Key.of("p-17")).orElseThrow();
    t.say(
        "read back with the keys: ssn="
            + read.getString("ssn")
            + ", equal to what was written: "
            + read.equals(plain));
    try (Stowage keyless = Stowage.builder(t.driver()).build()) {
      keyless.ensureTable(spec).get(Key.of("p-17"));
      t.say("a store without the keys read the item (unexpected)");
    } catch (IntegrityException e) {
      t.say("a store without the keys cannot read it: " + e.getMessage());
    }
  }

  private static String describe(AttributeValue v) {
    if (v instanceof AttributeValue.BinaryValue b) {
      String b64 = b.value().toBase64();
      return "binary envelope, "
          + ProgressBar.bytes(b.value().size())
          + " ("
          + b64.substring(0, Math.min(24, b64.length()))
          + "…)";
    }
    return v.type() + " (stored as is)";
  }

  static void overflow(Tour t) {
    Table docs =
        t.store().ensureTable(TableSpec.builder("documents", KeySchema.of("id", STRING)).build());
    byte[] body = new byte[2 * 1024 * 1024];
    new Random(42).nextBytes(body);
    Item doc = Item.builder().put("id", "d-1").put("title", "scan.tiff").put("body", body).build();
    docs.put(doc);
    Item stored = t.stored(docs, Key.of("d-1"));
    t.say(
        "a "
            + ProgressBar.bytes(t.driver().limits().sizeModel().itemBytes(doc))
            + " item; the backend takes at most "
            + ProgressBar.bytes(t.driver().limits().maxItemBytes()));
    t.say(
        "stored item: "
            + ProgressBar.bytes(t.driver().limits().sizeModel().itemBytes(stored))
            + ", attributes "
            + stored.names()
            + " ('body' moved to a blob, stowage:ovf points to it)");
    CountingBlobStore.Counts before = t.blobs().counts();
    Item read = docs.get(Key.of("d-1")).orElseThrow();
    t.say(
        "read back: "
            + read.getBinary("body").size()
            + " bytes, equal: "
            + read.equals(doc)
            + " (blobs read: "
            + t.blobs().counts().minus(before).opens()
            + ")");
    before = t.blobs().counts();
    Item title = docs.get(Key.of("d-1"), ReadOptions.project("title")).orElseThrow();
    t.say(
        "projection of 'title' only: "
            + title.getString("title")
            + " (blobs read: "
            + t.blobs().counts().minus(before).opens()
            + ")");
    docs.delete(Key.of("d-1"));
    t.say("deleting the item deletes its blob too.");
  }
}
