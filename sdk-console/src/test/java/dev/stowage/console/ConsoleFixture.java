package dev.stowage.console;

import static dev.stowage.item.AttributeType.NUMBER;
import static dev.stowage.item.AttributeType.STRING;

import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.codec.Codecs;
import dev.stowage.codec.KeyProvider;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.local.LocalDriver;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.memory.MemoryLimits;
import dev.stowage.overflow.BlobStore;
import dev.stowage.overflow.FileBlobStore;
import dev.stowage.overflow.MemoryBlobStore;
import dev.stowage.test.Backend;
import dev.stowage.test.Emulators;
import dev.stowage.usage.UsageTracking;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.List;

/**
 * A store the console tests browse, in memory, in a local SQLite file or on an emulator (DynamoDB
 * Local, the Firestore emulator in Datastore mode, Azurite): table {@code orders} (customer,
 * orderNo) with a byStatus index, a compressed {@code notes} and an encrypted {@code card}
 * attribute, 25 orders of customer "ada" and one of "zoe" large enough to overflow. The store
 * tracks usage and hot keys.
 */
final class ConsoleFixture implements AutoCloseable {
  static final int ORDERS = 25;
  static final String LONG_NOTE = "please leave the parcel at the back door. ".repeat(20);
  static final TableSpec SPEC =
      TableSpec.builder("orders", KeySchema.of("customer", STRING, "orderNo", NUMBER))
          .index(IndexSpec.of("byStatus", List.of("status"), List.of("orderNo")))
          .compressed("notes")
          .encrypted("card")
          // Datastore takes "zoe"'s 450 KB inline (its limit is 1 MiB): overflow it on every store.
          .overflowAbove(300_000)
          .build();

  /** Where a fixture's store lives. */
  enum Where {
    MEMORY,
    LOCAL,
    DYNAMODB,
    DATASTORE,
    AZURE
  }

  final Stowage stowage;
  final BlobStore blobs;
  final Codecs codecs;
  final Table table;

  ConsoleFixture(Where where, Path blobDir) {
    codecs = Codecs.builder().keys(KeyProvider.ofKeyset(newKeyset())).build();
    Path file = where == Where.LOCAL ? blobDir.resolve("console.db") : null;
    blobs =
        switch (where) {
          case MEMORY -> new MemoryBlobStore();
          case LOCAL -> new FileBlobStore(LocalDriver.blobDirectory(file));
          default -> new FileBlobStore(blobDir);
        };
    Stowage.Builder b =
        switch (where) {
          case MEMORY ->
              Stowage.builder(
                  MemoryDriver.builder()
                      .limits(MemoryLimits.dynamoDb())
                      .capabilities(MemoryLimits.dynamoDbCapabilities())
                      .build());
          case LOCAL ->
              Stowage.builder(LocalDriver.builder(file).limits(MemoryLimits.dynamoDb()).build());
          case DYNAMODB -> onEmulator(Backend.DYNAMODB);
          case DATASTORE -> onEmulator(Backend.DATASTORE);
          case AZURE -> onEmulator(Backend.AZURE);
        };
    stowage =
        b.blobStore(blobs)
            .codecs(codecs)
            .usageTracking(UsageTracking.builder().topK(5).build())
            .build();
    table = stowage.ensureTable(SPEC);
    for (int i = 0; i < ORDERS; i++) {
      table.put(order(i));
    }
    table.put(
        Item.builder()
            .put("customer", "zoe")
            .put("orderNo", 1)
            .put("status", "new")
            .put("scan", "x".repeat(450_000))
            .build());
  }

  /** A fresh namespace on the backend's emulator (overflowing to files beside the test). */
  private static Stowage.Builder onEmulator(Backend backend) {
    return Emulators.shared().builder(backend).namespace(Emulators.shared().newNamespace());
  }

  static Item order(int i) {
    return Item.builder()
        .put("customer", "ada")
        .put("orderNo", i)
        .put("status", i % 5 == 0 ? "cancelled" : "paid")
        .put("total", new java.math.BigDecimal("12345678901234567890.0" + i))
        .put("notes", LONG_NOTE + i)
        .put("card", "4111-0000-0000-" + String.format("%04d", i))
        .build();
  }

  static Key key(int orderNo) {
    return Key.of(AttributeValue.of("ada"), AttributeValue.of(orderNo));
  }

  static KeysetHandle newKeyset() {
    try {
      AeadConfig.register();
      return KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  Console console() {
    return Console.builder().store("test store", stowage, blobs, codecs, List.of(SPEC)).start();
  }

  @Override
  public void close() {
    stowage.close();
  }
}
