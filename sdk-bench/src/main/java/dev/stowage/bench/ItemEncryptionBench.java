package dev.stowage.bench;

import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import dev.stowage.AttributePolicy;
import dev.stowage.codec.Codecs;
import dev.stowage.codec.KeyProvider;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.spi.StoredItems;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import software.amazon.cryptography.dbencryptionsdk.dynamodb.itemencryptor.DynamoDbItemEncryptor;
import software.amazon.cryptography.dbencryptionsdk.dynamodb.itemencryptor.model.DecryptItemInput;
import software.amazon.cryptography.dbencryptionsdk.dynamodb.itemencryptor.model.DynamoDbItemEncryptorConfig;
import software.amazon.cryptography.dbencryptionsdk.dynamodb.itemencryptor.model.EncryptItemInput;
import software.amazon.cryptography.dbencryptionsdk.structuredencryption.model.CryptoAction;
import software.amazon.cryptography.materialproviders.IKeyring;
import software.amazon.cryptography.materialproviders.MaterialProviders;
import software.amazon.cryptography.materialproviders.model.AesWrappingAlg;
import software.amazon.cryptography.materialproviders.model.CreateRawAesKeyringInput;
import software.amazon.cryptography.materialproviders.model.DBEAlgorithmSuiteId;
import software.amazon.cryptography.materialproviders.model.MaterialProvidersConfig;

/**
 * Issue 3: encrypting and then decrypting one item of 10 attributes (about 2 KB), 4 of them
 * encrypted, through Stowage's codecs ({@code stowage}: each attribute encoded and decoded under
 * the table's policies, as the core does on write and read; AES-256-GCM per attribute, bound to
 * table, key and attribute name) against the AWS Database Encryption SDK for DynamoDB 3.9.0's
 * {@link DynamoDbItemEncryptor} with a raw AES keyring (the 4 attributes ENCRYPT_AND_SIGN, the keys
 * SIGN_ONLY as the SDK requires, the other 4 DO_NOTHING). Two anchors: {@code dbEsdkHmac}, the
 * SDK's cheaper suite without ECDSA ({@code
 * ALG_AES_256_GCM_HKDF_SHA512_COMMIT_KEY_SYMSIG_HMAC_SHA384}, the stricter comparison for Stowage),
 * and {@code dbEsdkEcdsa}, its default suite with ECDSA P-384 signatures. Target: Stowage at least
 * 5 times cheaper.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class ItemEncryptionBench {
  static final String TABLE = "patients";
  static final String PK = "pk", SK = "sk";
  static final List<String> ENCRYPTED = List.of("ssn", "cardNumber", "address", "medicalNotes");
  static final List<String> PLAIN = List.of("name", "email", "createdAt", "status");

  private Codecs codecs;
  private Map<String, AttributePolicy> policies;
  private Item item;
  private Key key;
  private Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> nativeItem;
  private DynamoDbItemEncryptor hmac, ecdsa;

  /** Builds the item, Stowage's keys and the two SDK encryptors over one raw AES key. */
  @Setup
  public void setUp() throws GeneralSecurityException {
    AeadConfig.register();
    codecs =
        Codecs.builder()
            .keys(
                KeyProvider.ofKeyset(
                    KeysetHandle.generateNew(
                        PredefinedAeadParameters.AES256_GCM, RegistryConfiguration.get())))
            .build();
    Map<String, String> values = new LinkedHashMap<>();
    values.put(PK, "patient#0001234");
    values.put(SK, "visit#2026-11-22T10:15:00Z");
    values.put("ssn", "123-45-6789");
    values.put("cardNumber", "4111 1111 1111 1111");
    values.put("address", words(300));
    values.put("medicalNotes", words(1550));
    values.put("name", "Ada Lovelace");
    values.put("email", "ada.lovelace@example.org");
    values.put("status", "discharged");
    Item.Builder b = Item.builder();
    values.forEach(b::put);
    item = b.put("createdAt", 1_795_000_000_000L).build();
    key = Key.of(values.get(PK), values.get(SK));
    policies = new HashMap<>();
    item.names().forEach(n -> policies.put(n, AttributePolicy.PLAIN));
    ENCRYPTED.forEach(n -> policies.put(n, AttributePolicy.ENCRYPTED));

    nativeItem = new HashMap<>();
    values.forEach(
        (k, v) ->
            nativeItem.put(
                k, software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(v)));
    nativeItem.put(
        "createdAt",
        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN("1795000000000"));

    byte[] aesKey = new byte[32];
    new SecureRandom().nextBytes(aesKey);
    MaterialProviders mpl =
        MaterialProviders.builder()
            .MaterialProvidersConfig(MaterialProvidersConfig.builder().build())
            .build();
    IKeyring keyring =
        mpl.CreateRawAesKeyring(
            CreateRawAesKeyringInput.builder()
                .keyName("bench-key")
                .keyNamespace("stowage-bench")
                .wrappingKey(ByteBuffer.wrap(aesKey))
                .wrappingAlg(AesWrappingAlg.ALG_AES256_GCM_IV12_TAG16)
                .build());
    hmac =
        encryptor(
            keyring, DBEAlgorithmSuiteId.ALG_AES_256_GCM_HKDF_SHA512_COMMIT_KEY_SYMSIG_HMAC_SHA384);
    ecdsa =
        encryptor(
            keyring,
            DBEAlgorithmSuiteId
                .ALG_AES_256_GCM_HKDF_SHA512_COMMIT_KEY_ECDSA_P384_SYMSIG_HMAC_SHA384);
    verify();
  }

  private static DynamoDbItemEncryptor encryptor(IKeyring keyring, DBEAlgorithmSuiteId suite) {
    Map<String, CryptoAction> actions = new HashMap<>();
    actions.put(PK, CryptoAction.SIGN_ONLY);
    actions.put(SK, CryptoAction.SIGN_ONLY);
    ENCRYPTED.forEach(n -> actions.put(n, CryptoAction.ENCRYPT_AND_SIGN));
    PLAIN.forEach(n -> actions.put(n, CryptoAction.DO_NOTHING));
    return DynamoDbItemEncryptor.builder()
        .DynamoDbItemEncryptorConfig(
            DynamoDbItemEncryptorConfig.builder()
                .logicalTableName(TABLE)
                .partitionKeyName(PK)
                .sortKeyName(SK)
                .attributeActionsOnEncrypt(actions)
                .allowedUnsignedAttributes(PLAIN)
                .keyring(keyring)
                .algorithmSuiteId(suite)
                .build())
        .build();
  }

  /** Checks sizes, that encrypted attributes are really encrypted and that round trips restore. */
  private void verify() {
    int bytes = 0;
    for (var e : nativeItem.entrySet()) {
      bytes +=
          e.getKey().length()
              + (e.getValue().s() != null ? e.getValue().s().length() : e.getValue().n().length());
    }
    if (bytes < 1900 || bytes > 2100 || item.size() != 10) {
      throw new IllegalStateException(
          "the item should have 10 attributes and about 2 KB: " + bytes);
    }
    Item stored = encode(item);
    for (String n : ENCRYPTED) {
      if (stored.get(n).equals(item.get(n))) {
        throw new IllegalStateException(n + " was not encrypted");
      }
    }
    if (!stowage().equals(item)) {
      throw new IllegalStateException("Stowage round trip changed the item");
    }
    if (!dbEsdkHmac().equals(nativeItem) || !dbEsdkEcdsa().equals(nativeItem)) {
      throw new IllegalStateException("DB-ESDK round trip changed the item");
    }
  }

  private static String words(int length) {
    String text =
        "Patient reports mild headache after exercise; advised hydration, rest and a follow-up"
            + " visit in two weeks. Blood pressure normal, no known allergies. ";
    StringBuilder sb = new StringBuilder(length);
    while (sb.length() < length) {
      sb.append(text);
    }
    return sb.substring(0, length);
  }

  private Item encode(Item plain) {
    Map<String, AttributeValue> out = new LinkedHashMap<>(plain.size() * 2);
    plain
        .attributes()
        .forEach((n, v) -> out.put(n, codecs.encode(TABLE, key, n, policies.get(n), v)));
    return StoredItems.of(out);
  }

  private Item decode(Item stored) {
    Map<String, AttributeValue> out = new LinkedHashMap<>(stored.size() * 2);
    stored
        .attributes()
        .forEach((n, v) -> out.put(n, codecs.decode(TABLE, key, n, policies.get(n), v)));
    return StoredItems.of(out);
  }

  @Benchmark
  public Item stowage() {
    return decode(encode(item));
  }

  @Benchmark
  public Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> dbEsdkHmac() {
    return roundTrip(hmac);
  }

  @Benchmark
  public Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> dbEsdkEcdsa() {
    return roundTrip(ecdsa);
  }

  private Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> roundTrip(
      DynamoDbItemEncryptor encryptor) {
    var encrypted =
        encryptor.EncryptItem(EncryptItemInput.builder().plaintextItem(nativeItem).build())
            .encryptedItem();
    return encryptor.DecryptItem(DecryptItemInput.builder().encryptedItem(encrypted).build())
        .plaintextItem();
  }
}
