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
      assertThat(reasonOf(t, bad))
          .as("character %d changed", i)
          .isIn(Reason.TAMPERED, Reason.MALFORMED);
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
    Stowage otherKey = kit().storeBuilder(store.namespace()).build();
    Table sameTableOtherKey = otherKey.table(t.spec());
    assertThat(reasonOf(sameTableOtherKey, cursor))
        .as("a cursor sealed with another cursor key")
        .isEqualTo(Reason.TAMPERED);
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
