package dev.stowage.cli.internal.cmd;

import dev.stowage.cli.Main;
import dev.stowage.cli.internal.KeysetFiles;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code stowage keyset}. */
@Command(
    name = "keyset",
    mixinStandardHelpOptions = true,
    description =
        "Create a Tink keyset of one AES-256-GCM key in cleartext JSON (the form --keyset reads),"
            + " or add a new primary key to one (--rotate) so that new writes use it and values"
            + " under the old keys still read; `stowage reencrypt` then moves them to the new"
            + " key. For tests and local stores: in production, keep keysets encrypted under a"
            + " KMS key (docs/cli.md, \"Keys\").")
public final class KeysetCommand implements Callable<Integer> {
  @ParentCommand Main main;

  @Option(
      names = "--out",
      required = true,
      paramLabel = "FILE",
      description = "The keyset file to create (or, with --rotate, to rotate in place).")
  Path out;

  @Option(names = "--rotate", description = "Add a new primary key to the existing keyset.")
  boolean rotate;

  @Override
  public Integer call() {
    if (rotate) {
      int keys = KeysetFiles.rotate(out);
      main.out().println("rotated " + out + ": a new primary key, " + keys + " keys in all");
    } else {
      KeysetFiles.create(out);
      main.out().println("created " + out + ": one AES-256-GCM key, readable by its owner only");
    }
    return 0;
  }
}
