package dev.stowage.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.item.AttributeValue;
import dev.stowage.query.Query;
import dev.stowage.query.Scan;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The cursor plaintext of docs/FORMAT.md, "Cursors", pinned byte for byte. */
class CursorCodecTest {
  private static final HexFormat HEX = HexFormat.of();

  private static CursorState indexQuery(Integer fingerprint) {
    Query q =
        Query.index("byKind")
            .partition(AttributeValue.of("t"), AttributeValue.of("click"))
            .limit(25)
            .build();
    return new CursorState(
        "prod", "orders", 1_767_225_600_000L, q, null, true, null, false, 0, 0, 0, 0, fingerprint);
  }

  // version 2 · "prod" · "orders" · expiry · kind 1 · "byKind" · 2 partition values · no sort ·
  // ascending · limit 25 · not consistent · no filter · no projection · fingerprint · toward after
  // · no anchor · counts 0 0 0 · page cursor
  private static final String V2 =
      "02"
          + "0470726f64"
          + "066f7264657273"
          + "80d0eab6b733"
          + "01"
          + "0662794b696e64"
          + "02"
          + "010174"
          + "0105636c69636b"
          + "00"
          + "00"
          + "19"
          + "00"
          + "00"
          + "00"
          + "a1ab227b"
          + "01"
          + "00"
          + "000000"
          + "00";

  @Test
  void anIndexQueryCursorIsPinnedWithItsIndexFingerprint() {
    assertThat(HEX.formatHex(CursorCodec.write(indexQuery(0xa1ab227b)))).isEqualTo(V2);
    assertThat(CursorCodec.read(HEX.parseHex(V2))).isEqualTo(indexQuery(0xa1ab227b));
  }

  @Test
  void versionOneCursorsAreStillReadWithoutAFingerprint() {
    String v1 = "01" + V2.substring(2).replace("00a1ab227b01", "0001");
    assertThat(CursorCodec.read(HEX.parseHex(v1))).isEqualTo(indexQuery(null));
  }

  @Test
  void scansAndPrimaryKeyQueriesCarryNoFingerprint() {
    CursorState scan =
        new CursorState("", "t", 5, null, Scan.all(), true, null, false, 1, 2, 3, 2, null);
    assertThat(CursorCodec.read(CursorCodec.write(scan))).isEqualTo(scan);
    CursorState pk =
        new CursorState(
            "", "t", 5, Query.partition("p").build(), null, false, null, false, 0, 0, 0, 1, null);
    assertThat(CursorCodec.read(CursorCodec.write(pk))).isEqualTo(pk);
  }

  @Test
  void maintenanceTokensCarryTheirFindingsInVersionThree() {
    CursorState verify =
        new CursorState(
            "",
            "t",
            5,
            null,
            Scan.all(),
            true,
            null,
            false,
            250,
            7,
            0,
            CursorState.VERIFY,
            null,
            new CursorState.Findings(5, 3, 1));
    byte[] written = CursorCodec.write(verify);
    // version 3 · "" · "t" · expiry 5 · scan · … · counts 250 7 0 · job 4 · findings 5 3 1
    assertThat(HEX.formatHex(written)).startsWith("03").endsWith("fa0107" + "00" + "04" + "050301");
    assertThat(CursorCodec.read(written)).isEqualTo(verify);
    CursorState backfill = verify.forJob(CursorState.BACKFILL).withFindings(null);
    assertThat(CursorCodec.read(CursorCodec.write(backfill)).findings())
        .isEqualTo(CursorState.Findings.NONE);
  }

  @Test
  void versionTwoMaintenanceTokensAreStillReadWithoutFindings() {
    CursorState reencrypt =
        new CursorState("", "t", 5, null, Scan.all(), true, null, false, 9, 4, 0, 3, null);
    byte[] v3 = CursorCodec.write(reencrypt);
    String hex = HEX.formatHex(v3);
    String v2 = "02" + hex.substring(2, hex.length() - 6);
    assertThat(CursorCodec.read(HEX.parseHex(v2))).isEqualTo(reencrypt);
  }

  @Test
  void unknownVersionsAreMalformed() {
    assertThatThrownBy(() -> CursorCodec.read(HEX.parseHex("05" + V2.substring(2))))
        .isInstanceOf(ValueWire.MalformedException.class)
        .hasMessageContaining("unknown cursor version 5");
  }

  @Test
  void segmentedMaintenanceTokensCarryEverySegmentsCheckpoint() {
    CursorState backfill =
        new CursorState("", "t", 5, null, Scan.all(), true, null, false, 9, 4, 0, 2, null)
            .withFindings(new CursorState.Findings(1, 3, 0))
            .withSegments(
                java.util.List.of(
                    new CursorState.SegmentMark("~a", null, false),
                    new CursorState.SegmentMark("a~b", "cp-1", false),
                    new CursorState.SegmentMark("b~", null, true)));
    byte[] v4 = CursorCodec.write(backfill);
    assertThat(v4[0]).isEqualTo((byte) 4);
    assertThat(CursorCodec.read(v4)).isEqualTo(backfill);
    // The segments follow version 3's fields: without them the token is version 3's.
    CursorState plain = backfill.withSegments(null);
    assertThat(CursorCodec.write(plain)[0]).isEqualTo((byte) 3);
    assertThat(HEX.formatHex(v4))
        .endsWith(
            "03"
                + "02"
                + "7e61"
                + "00"
                + "03"
                + "617e62"
                + "01"
                + "04"
                + "63702d31"
                + "02"
                + "627e"
                + "02");
  }
}
