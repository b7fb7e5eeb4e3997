package dev.stowage.cli;

import dev.stowage.cli.internal.Errors;
import dev.stowage.cli.internal.ProgressBar;
import dev.stowage.cli.internal.cmd.CapacityCommand;
import dev.stowage.cli.internal.cmd.ConsoleCommand;
import dev.stowage.cli.internal.cmd.CostCommand;
import dev.stowage.cli.internal.cmd.DeleteWhereCommand;
import dev.stowage.cli.internal.cmd.GetCommand;
import dev.stowage.cli.internal.cmd.KeysetCommand;
import dev.stowage.cli.internal.cmd.MigrateCommand;
import dev.stowage.cli.internal.cmd.PutCommand;
import dev.stowage.cli.internal.cmd.QueryCommand;
import dev.stowage.cli.internal.cmd.ReencryptCommand;
import dev.stowage.cli.internal.cmd.RepairIndexesCommand;
import dev.stowage.cli.internal.cmd.ScanCommand;
import dev.stowage.cli.internal.cmd.SweepCommand;
import dev.stowage.cli.internal.cmd.TopCommand;
import dev.stowage.cli.internal.cmd.TourCommand;
import java.io.PrintStream;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code stowage} command line. {@link #main} exits the JVM with the command's exit code;
 * {@link #run} returns it, for embedding and tests.
 *
 * <p>Errors are one line on standard error starting with {@code stowage:}; exit codes are {@link
 * ExitCode}'s (documented in docs/cli.md).
 */
@Command(
    name = "stowage",
    mixinStandardHelpOptions = true,
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
      RepairIndexesCommand.class,
      TopCommand.class,
      CostCommand.class,
      CapacityCommand.class,
      ConsoleCommand.class,
      KeysetCommand.class,
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
    setVersion(cl, new Version());
    cl.setParameterExceptionHandler(
        (ex, arguments) -> {
          err.flush();
          err.println(
              "stowage: "
                  + Errors.oneLine(usageMessage(ex))
                  + " (see '"
                  + ex.getCommandLine().getCommandSpec().qualifiedName()
                  + " --help')");
          return ExitCode.USAGE;
        });
    cl.setExecutionExceptionHandler(
        (ex, commandLine, parseResult) -> {
          // A job that failed may have left its progress line open: the error gets its own line.
          ProgressBar.endOpenLine(err);
          err.flush();
          Errors.Report r = Errors.report(ex);
          err.println("stowage: " + r.message());
          if (r.code() == ExitCode.INTERNAL) {
            if (System.getenv("STOWAGE_STACKTRACE") != null) {
              ex.printStackTrace(err);
            } else {
              err.println("stowage: set STOWAGE_STACKTRACE=1 to print the stack trace");
            }
          }
          return r.code();
        });
    int code = cl.execute(args);
    out.flush();
    err.flush();
    return code;
  }

  /**
   * Picocli's message, except for a word the top command does not know: picocli reports it as an
   * "unmatched argument at index 0", where the user typed a command that does not exist.
   */
  private static String usageMessage(CommandLine.ParameterException ex) {
    if (ex instanceof CommandLine.UnmatchedArgumentException u
        && u.getCommandLine().getParent() == null
        && !u.getUnmatched().isEmpty()
        && !u.getUnmatched().get(0).startsWith("-")) {
      return "unknown command '"
          + u.getUnmatched().get(0)
          + "'; the commands are "
          + String.join(", ", u.getCommandLine().getSubcommands().keySet());
    }
    return ex.getMessage();
  }

  /** Gives every command, not only the top one, the version for {@code --version}. */
  private static void setVersion(CommandLine cl, CommandLine.IVersionProvider version) {
    cl.getCommandSpec().versionProvider(version);
    cl.getSubcommands().values().forEach(sub -> setVersion(sub, version));
  }

  /** The version of the build, from the properties the build writes into the jar. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      java.util.Properties p = new java.util.Properties();
      try (var in = Main.class.getResourceAsStream("version.properties")) {
        if (in != null) {
          p.load(in);
        }
      } catch (java.io.IOException e) {
        // fall through to "unknown"
      }
      return new String[] {
        "stowage " + p.getProperty("version", "(unknown version)"),
        "Java " + System.getProperty("java.version") + ", " + System.getProperty("os.name")
      };
    }
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
