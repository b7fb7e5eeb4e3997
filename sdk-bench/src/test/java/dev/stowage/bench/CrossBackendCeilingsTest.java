package dev.stowage.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The arithmetic behind {@link CrossBackendCeilings}' per-hop lines (no emulators). */
class CrossBackendCeilingsTest {
  @Test
  void theSlowerSideIsTheLowerRateOfEachRoundAndTheRatioIsTakenPerRound() {
    double[] source = {7000, 9000, 6000};
    double[] target = {8000, 7500, 12000};
    double[] slower = CeilingFigures.slowerSide(source, target);
    assertThat(slower).containsExactly(7000, 7500, 6000);
    assertThat(CeilingFigures.ratios(new double[] {5600, 3000, 6600}, slower))
        .containsExactly(0.8, 0.4, 1.1);
  }

  @Test
  void theSlowerSideIsNamedWithTheRoundsItWasSlowerIn() {
    // stores: 0 DynamoDB Local, 1 Datastore emulator, 2 Azurite (item + forward row)
    assertThat(CeilingFigures.slowerSides(new double[] {1, 1, 1}, new double[] {2, 2, 2}, 0, 1))
        .isEqualTo("DynamoDB Local, the source");
    assertThat(CeilingFigures.slowerSides(new double[] {3, 3, 3}, new double[] {2, 2, 2}, 1, 2))
        .isEqualTo("Azurite, item + forward row, the target");
    assertThat(CeilingFigures.slowerSides(new double[] {1, 3, 1}, new double[] {2, 2, 2}, 2, 0))
        .isEqualTo(
            "Azurite, item + forward row, the source, in 2 of 3 rounds; DynamoDB Local, the"
                + " target, in 1");
  }

  @Test
  void everySideGoesFirstOnceInAsManyRoundsAsThereAreSidesAndEachRoundRunsEverySideOnce() {
    Set<Integer> firsts = new HashSet<>();
    for (int round = 1; round <= 3; round++) {
      Set<Integer> turns = new HashSet<>();
      for (int k = 0; k < 3; k++) {
        turns.add(CrossBackendCeilings.sideOfTurn(round, k, 3));
      }
      assertThat(turns).containsExactlyInAnyOrder(0, 1, 2);
      firsts.add(CrossBackendCeilings.sideOfTurn(round, 0, 3));
    }
    assertThat(firsts).containsExactlyInAnyOrder(0, 1, 2);
    // the warm-up round (0) starts with the migrator, as before
    assertThat(CrossBackendCeilings.sideOfTurn(0, 0, 3)).isZero();
  }
}
