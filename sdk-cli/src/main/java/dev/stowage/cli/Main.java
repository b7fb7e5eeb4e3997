package dev.stowage.cli;

import dev.stowage.StowageException;
import dev.stowage.cli.internal.CliException;
import dev.stowage.cli.internal.cmd.DeleteWhereCommand;
import dev.stowage.cli.internal.cmd.GetCommand;
import dev.stowage.cli.internal.cmd.MigrateCommand;
import dev.stowage.cli.internal.cmd.PutCommand;
import dev.stowage.cli.internal.cmd.QueryCommand;
import dev.stowage.cli.internal.cmd.ReencryptCommand;
import dev.stowage.cli.internal.cmd.ScanCommand;
import dev.stowage.cli.internal.cmd.SweepCommand;
import dev.stowage.cli.internal.cmd.TourCommand;
import java.io.PrintStream;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code stowage} command line. {@link #main} exits the JVM with the command's exit code;
 * {@link #run} returns it, for embedding and tests.
 *
 * <p>Exit codes: 0 success, 1 a failure of the store or the data (unreachable store, failed
 * verification, missing keys), 2 a usage error (bad URI, bad flag, bad JSON).
 */
@Command(
    name = "stowage",
    mixinStandardHelpOptions = true,
    version = "stowage 0.1.0",
    description = "One item API over DynamoDB, Cloud Datastore and Azure Table Storage: tools.",
    subcommands = {
      TourCommand.class,
      GetCommand.class,
      PutCommand.class,
      QueryCommand.class,
      ScanCommand.class,
      DeleteWhereCommand.class,
      MigrateCommand.class,
      SweepCommand.class,
      ReencryptCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {
  private final PrintStream out;
  private final PrintStream err;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  private Main(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /** Runs the command line and exits with its code. */
  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /**
   * Runs one command.
   *
   * @param out where results go (items, reports)
   * @param err where progress and errors go
   * @return the exit code
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    CommandLine cl = new CommandLine(new Main(out, err));
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    cl.setExecutionExceptionHandler(
        (ex, commandLine, parseResult) -> {
          err.flush();
          if (ex instanceof CliException c) {
            err.println("stowage: " + c.getMessage());
            return c.exitCode();
          }
          if (ex instanceof StowageException s) {
            err.println("stowage: " + describe(s));
            return 1;
          }
          if (ex instanceof IllegalArgumentException i) {
            err.println("stowage: " + i.getMessage());
            return 2;
          }
          throw ex;
        });
    int code = cl.execute(args);
    out.flush();
    err.flush();
    return code;
  }

  private static String describe(StowageException e) {
    String kind =
        switch (e.getClass().getSimpleName()) {
          case "UnavailableException" -> "store unreachable: ";
          case "NotFoundException" -> "not found: ";
          case "ThrottledException" -> "throttled: ";
          case "IntegrityException" ->
              e.getMessage().contains("no keys")
                  ? "missing keys (give --keyset FILE; --raw shows stored forms): "
                  : "integrity check failed: ";
          default -> "";
        };
    String message = e.getMessage();
    Throwable c = e.getCause();
    String cause =
        c == null || c.getMessage() == null || message.contains(c.getMessage())
            ? ""
            : " (" + c.getMessage() + ")";
    String all = kind + message + cause;
    return all.length() > 600 ? all.substring(0, 600) + "…" : all;
  }

  /** Standard output of this invocation. */
  public PrintStream out() {
    return out;
  }

  /** Standard error of this invocation. */
  public PrintStream err() {
    return err;
  }

  @Override
  public void run() {
    spec.commandLine().usage(out);
  }
}
