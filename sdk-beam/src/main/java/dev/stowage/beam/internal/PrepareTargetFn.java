package dev.stowage.beam.internal;

import org.apache.beam.sdk.transforms.DoFn;

/** Opens the source table and creates the target table and its indexes if missing, once. */
public final class PrepareTargetFn extends DoFn<String, String> {
  private static final long serialVersionUID = 1L;
  private final MigrationSides sides;

  public PrepareTargetFn(MigrationSides sides) {
    this.sides = sides;
  }

  @ProcessElement
  public void process(@Element String e, OutputReceiver<String> out) {
    try (MigrationSides.Both both = sides.open()) {
      both.migrator().prepareTarget();
    }
    out.output(e);
  }
}
