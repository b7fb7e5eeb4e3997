package dev.stowage.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SegmentValuesTest {

  @Test
  void aSegmentIsNumberedWithinItsPlanAndHasPrintableBounds() {
    assertThat(new ScanSegment(null, 0, 1, "").toString()).isEqualTo("table segment 0/1");
    assertThat(new ScanSegment("byx", 2, 3, "a~b").toString()).isEqualTo("index byx segment 2/3");
    assertThatThrownBy(() -> new ScanSegment(null, 3, 3, ""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ScanSegment(null, -1, 3, ""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ScanSegment(null, 0, 0, ""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ScanSegment(null, 0, 2, "a\nb"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ScanSegment(null, 0, 2, null))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void aPageHasACheckpointExactlyWhenMoreMayFollow() {
    assertThat(SegmentPage.last(List.of()).done()).isTrue();
    assertThat(new SegmentPage(List.of(), "c", false).checkpoint()).isEqualTo("c");
    assertThatThrownBy(() -> new SegmentPage(List.of(), null, false))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new SegmentPage(List.of(), "c", true))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new SegmentPage(List.of(), "é", false))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aSegmentReadAsksForAtLeastOneItem() {
    ScanSegment s = new ScanSegment(null, 0, 1, "");
    assertThatThrownBy(() -> new SegmentScan(s, 0, null, true))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(new SegmentScan(s, 5, "x", false).attributes()).isNull();
  }
}
