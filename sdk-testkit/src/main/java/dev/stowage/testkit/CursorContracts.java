package dev.stowage.testkit;

import static dev.stowage.testkit.Helpers.pnSpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import dev.stowage.DeleteJob;
import dev.stowage.InvalidCursorException;
import dev.stowage.InvalidCursorException.Reason;
import dev.stowage.MaintenanceJob;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.codec.Codecs;
import dev.stowage.codec.KeyProvider;
import dev.stowage.item.Item;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.Scan;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Sealed cursors: opaque, authenticated, expiring, bound to their namespace and table. */
abstract class CursorContracts extends Contract {
  private static final String URL_ALPHABET =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  private static final String STD_ALPHABET =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

  static Aead sharedCursorKey() {
    try {
      AeadConfig.register();
      var config = RegistryConfiguration.get();
      return KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM, config)
          .getPrimitive(config, Aead.class);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot create a Tink AEAD for cursors", e);
    }
  }

  private static Table fill(Table t) {
    for (int i = 0; i < 10; i++) {
      t.put(
          Item.builder().put("p", "customer-7f3a9").put("s", 987654300 + i).put("v", "x").build());
    }
    return t;
  }

  private static String cursorOf(Table t) {
    Page p = t.query(Query.partition("customer-7f3a9").limit(3).build());
    assertThat(p.hasAfter()).isTrue();
    return p.after().orElseThrow();
  }

  private static Reason reasonOf(Table t, String cursor) {
    InvalidCursorException e =
        catchThrowableOfType(InvalidCursorException.class, () -> t.page(cursor));
    assertThat(e).as("cursor %s must be rejected", cursor).isNotNull();
    assertThat(e.retryable()).isFalse();
    return e.reason();
  }

  @Test
  void aCursorWithAnyCharacterChangedIsRejected() {
    Table t = fill(table(pnSpec("tamper")));
    String cursor = cursorOf(t);
    assertThat(t.page(cursor).items()).hasSize(3);
    String alphabet =
        cursor.indexOf('+') >= 0 || cursor.indexOf('/') >= 0 ? STD_ALPHABET : URL_ALPHABET;
    for (int i = 0; i < cursor.length(); i++) {
      char c = cursor.charAt(i);
      int v = alphabet.indexOf(c);
      // Flipping the top bit of a Base64 digit changes a data bit even in the last digit.
      char flipped = v >= 0 ? alphabet.charAt(v ^ 0x20) : (c == 'A' ? 'B' : 'A');
      String bad = cursor.substring(0, i) + flipped + cursor.substring(i + 1);
      // The first 7 characters hold the key id (Tink output prefix): changed, it names a key the
      // store does not hold, which is indistinguishable from a cursor sealed under another key.
      List<Reason> allowed =
          i < 7
              ? List.of(Reason.TAMPERED, Reason.MALFORMED, Reason.UNKNOWN_KEY)
              : List.of(Reason.TAMPERED, Reason.MALFORMED);
      assertThat(reasonOf(t, bad)).as("character %d changed", i).isIn(allowed);
    }
  }

  @Test
  void aTruncatedExtendedOrForeignCursorIsRejected() {
    Table t = fill(table(pnSpec("truncate")));
    String cursor = cursorOf(t);
    for (int len = 0; len < cursor.length(); len++) {
      assertThat(reasonOf(t, cursor.substring(0, len)))
          .as("cursor cut to %d characters", len)
          .isIn(Reason.TAMPERED, Reason.MALFORMED);
    }
    for (String bad : List.of(cursor + "A", cursor + cursor, "not a cursor", "%%%", "{\"p\":1}")) {
      assertThat(reasonOf(t, bad)).as(bad).isIn(Reason.TAMPERED, Reason.MALFORMED);
    }
    Stowage otherKey = kit().storeBuilder(store.namespace()).cursorKeys(newKeyset()).build();
    Table sameTableOtherKey = otherKey.ensureTable(t.spec());
    assertThat(reasonOf(sameTableOtherKey, cursor))
        .as("a cursor sealed with another cursor key")
        .isEqualTo(Reason.UNKNOWN_KEY);
  }

  static KeysetHandle newKeyset() {
    try {
      AeadConfig.register();
      return KeysetHandle.generateNew(
          PredefinedAeadParameters.AES256_GCM, RegistryConfiguration.get());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code keyset} with a new primary key added; the old keys stay, so their cursors open. */
  static KeysetHandle rotated(KeysetHandle keyset) {
    try {
      return KeysetHandle.newBuilder(keyset)
          .addEntry(
              KeysetHandle.generateEntryFromParameters(PredefinedAeadParameters.AES256_GCM)
                  .withRandomId()
                  .makePrimary())
          .build();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Codecs codecKeys(KeysetHandle keyset) {
    return Codecs.builder().keys(KeyProvider.ofKeyset(keyset)).build();
  }

  @Test
  void cursorsWorkAcrossInstancesThatShareKeysAndNameTheKeyOtherwise() {
    String ns = kit().freshNamespace();
    // No keys configured: every instance of this process shares one per-process key.
    Table a = fill(table(kit().storeBuilder(ns).build(), pnSpec("instances")));
    Table b = kit().storeBuilder(ns).build().ensureTable(a.spec());
    assertThat(b.page(cursorOf(a)).items()).as("another instance, same process").hasSize(3);

    // Instances configured with the same codec keyset share cursors, across processes too.
    KeysetHandle codecKeyset = newKeyset();
    Table c1 = kit().storeBuilder(ns).codecs(codecKeys(codecKeyset)).build().ensureTable(a.spec());
    Table c2 = kit().storeBuilder(ns).codecs(codecKeys(codecKeyset)).build().ensureTable(a.spec());
    String fromC1 = cursorOf(c1);
    assertThat(c2.page(fromC1).items()).as("same codec keyset").hasSize(3);

    // A cursor under a key the store does not hold says so, and how to share keys.
    InvalidCursorException e =
        catchThrowableOfType(InvalidCursorException.class, () -> a.page(fromC1));
    assertThat(e.reason()).isEqualTo(Reason.UNKNOWN_KEY);
    assertThat(e.getMessage())
        .contains("does not hold")
        .contains("Stowage.Builder.cursorKeys")
        .contains("Codecs.Builder.keys")
        .contains("generated for this process");
    assertThat(reasonOf(c1, cursorOf(a))).isEqualTo(Reason.UNKNOWN_KEY);
    Table otherCodecKeys =
        kit().storeBuilder(ns).codecs(codecKeys(newKeyset())).build().ensureTable(a.spec());
    assertThat(reasonOf(otherCodecKeys, fromC1)).isEqualTo(Reason.UNKNOWN_KEY);

    // Rotation: a new primary seals new cursors; cursors of the old key still open.
    Table rotatedStore =
        kit()
            .storeBuilder(ns)
            .codecs(codecKeys(rotated(codecKeyset)))
            .build()
            .ensureTable(a.spec());
    assertThat(rotatedStore.page(fromC1).items()).as("old key kept in the keyset").hasSize(3);
    String fromRotated = cursorOf(rotatedStore);
    assertThat(reasonOf(c1, fromRotated))
        .as("new key not yet everywhere")
        .isEqualTo(Reason.UNKNOWN_KEY);

    // An explicit cursor keyset takes precedence over the codec keyset.
    KeysetHandle cursorKeyset = newKeyset();
    Table d1 =
        kit()
            .storeBuilder(ns)
            .codecs(codecKeys(codecKeyset))
            .cursorKeys(cursorKeyset)
            .build()
            .ensureTable(a.spec());
    Table d2 = kit().storeBuilder(ns).cursorKeys(cursorKeyset).build().ensureTable(a.spec());
    assertThat(reasonOf(d1, fromC1)).isEqualTo(Reason.UNKNOWN_KEY);
    assertThat(d2.page(cursorOf(d1)).items()).hasSize(3);
  }

  @Test
  void anExpiredCursorIsRejected() {
    MutableClock clock = new MutableClock(Instant.parse("2026-11-22T00:00:00Z"));
    Stowage timed =
        kit()
            .storeBuilder(kit().freshNamespace())
            .clock(clock)
            .cursorTtl(Duration.ofMinutes(5))
            .build();
    Table t = fill(table(timed, pnSpec("expiry")));
    String cursor = cursorOf(t);
    clock.advance(Duration.ofMinutes(4));
    assertThat(t.page(cursor).items()).hasSize(3);
    clock.advance(Duration.ofMinutes(2));
    assertThat(reasonOf(t, cursor)).isEqualTo(Reason.EXPIRED);
  }

  @Test
  void aCursorFromAnotherNamespaceOrTableIsRejected() {
    Aead key = sharedCursorKey();
    Stowage a = kit().storeBuilder(kit().freshNamespace()).cursorAead(key).build();
    Stowage b = kit().storeBuilder(kit().freshNamespace()).cursorAead(key).build();
    Table inA = fill(table(a, pnSpec("shared")));
    Table inB = fill(table(b, pnSpec("shared")));
    Table otherTable = fill(table(a, pnSpec("sharedtoo")));
    String fromA = cursorOf(inA);
    assertThat(inA.page(fromA).items()).hasSize(3);
    assertThat(reasonOf(inB, fromA)).isEqualTo(Reason.WRONG_NAMESPACE);
    assertThat(reasonOf(otherTable, fromA)).isEqualTo(Reason.WRONG_TABLE);
    assertThat(inB.page(cursorOf(inB)).items()).hasSize(3);
  }

  private static InvalidCursorException rejected(Runnable call) {
    InvalidCursorException e = catchThrowableOfType(InvalidCursorException.class, call::run);
    assertThat(e).as("the token must be rejected").isNotNull();
    assertThat(e.retryable()).isFalse();
    return e;
  }

  @Test
  void tokensOfOneKindAreRefusedWhereAnotherIsExpected() {
    Table t = fill(table(pnSpec("kinds")));
    Query q = Query.partition("customer-7f3a9").limit(3).build();
    String page = cursorOf(t);
    String scanPage = t.scan(new Scan(3, null, null, true)).after().orElseThrow();
    DeleteJob.Options dryRun = new DeleteJob.Options(0, 3, true, null);
    List<String> deleteTokens = new ArrayList<>();
    t.deleteWhere(q, new DeleteJob.Options(0, 3, true, p -> deleteTokens.add(p.resumeToken())))
        .run();
    String deleteToken = deleteTokens.get(0);
    MaintenanceJob.Options small = new MaintenanceJob.Options(0, 3, true, null);
    List<String> maintenanceTokens = new ArrayList<>();
    t.backfillIndexes(
            new MaintenanceJob.Options(0, 3, true, p -> maintenanceTokens.add(p.resumeToken())))
        .run();
    String maintenanceToken = maintenanceTokens.get(0);

    InvalidCursorException e = rejected(() -> t.page(deleteToken));
    assertThat(e.reason()).isEqualTo(Reason.WRONG_KIND);
    assertThat(e.getMessage()).contains("delete-job").contains("resumeDelete");
    e = rejected(() -> t.page(maintenanceToken));
    assertThat(e.reason()).isEqualTo(Reason.WRONG_KIND);
    assertThat(e.getMessage()).contains("resumeMaintenance");
    for (String cursor : List.of(page, scanPage)) {
      e = rejected(() -> t.resumeDelete(cursor, dryRun));
      assertThat(e.reason()).isEqualTo(Reason.WRONG_KIND);
      assertThat(e.getMessage()).contains("page cursor").contains("Table.page");
      assertThat(rejected(() -> t.resumeMaintenance(cursor, small)).reason())
          .isEqualTo(Reason.WRONG_KIND);
    }
    assertThat(rejected(() -> t.resumeDelete(maintenanceToken, dryRun)).reason())
        .isEqualTo(Reason.WRONG_KIND);
    assertThat(rejected(() -> t.resumeMaintenance(deleteToken, small)).reason())
        .isEqualTo(Reason.WRONG_KIND);

    // Each kind still works where it belongs.
    assertThat(t.page(page).items()).hasSize(3);
    assertThat(t.page(scanPage).items()).hasSize(3);
    assertThat(t.resumeDelete(deleteToken, dryRun).run().done()).isTrue();
    assertThat(t.resumeMaintenance(maintenanceToken, small).run().done()).isTrue();
    assertThat(t.queryAll(q).toList()).as("dry runs deleted nothing").hasSize(10);
  }

  @Test
  void cursorsDoNotRevealTheTableOrKeysInClear() {
    Table t = fill(table(pnSpec("confidential")));
    Page page = t.query(Query.partition("customer-7f3a9").limit(3).build());
    Page next = t.page(page.after().orElseThrow());
    List<String> cursors = new ArrayList<>();
    page.after().ifPresent(cursors::add);
    page.before().ifPresent(cursors::add);
    next.after().ifPresent(cursors::add);
    next.before().ifPresent(cursors::add);
    assertThat(cursors).isNotEmpty();
    List<String> secrets =
        List.of("confidential", "customer-7f3a9", "7f3a9", "98765430", store.namespace());
    for (String c : cursors) {
      List<String> views = new ArrayList<>();
      views.add(c);
      for (Base64.Decoder d :
          List.of(Base64.getUrlDecoder(), Base64.getDecoder(), Base64.getMimeDecoder())) {
        try {
          views.add(new String(d.decode(c), StandardCharsets.ISO_8859_1));
        } catch (IllegalArgumentException notThisAlphabet) {
          // the cursor uses another Base64 alphabet; the other decoders cover it
        }
      }
      for (String view : views) {
        for (String secret : secrets) {
          assertThat(view).as("cursor %s", c).doesNotContain(secret);
        }
      }
    }
    assertThatThrownBy(() -> t.page(null))
        .isInstanceOfAny(NullPointerException.class, InvalidCursorException.class);
  }
}
