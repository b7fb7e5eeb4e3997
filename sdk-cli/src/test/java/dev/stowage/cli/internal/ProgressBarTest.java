package dev.stowage.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.cli.ExitCode;
import dev.stowage.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jobs' progress line: redrawn in place on a terminal, short on a log, and never sharing a line
 * with the one-line error of a job that fails.
 */
class ProgressBarTest {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);

  private String written() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void onALogItPrintsAQuarterOfTheWayAtATimeAndNoCarriageReturns() {
    ProgressBar bar = new ProgressBar(err, "deleting", 100, false);
    for (int i = 1; i <= 100; i++) {
      bar.update(i, "");
    }
    bar.finish(100, "");
    assertThat(written()).doesNotContain("\r");
    // At 0, 1/4, 1/2 and 3/4 of the way, and the end.
    assertThat(written().lines())
        .hasSize(5)
        .allSatisfy(l -> assertThat(l).startsWith("   deleting ["));
    assertThat(written().lines().toList().get(4)).contains("] 100/100");
  }

  @Test
  void onATerminalItRedrawsOneLineAndBlanksWhatALongerDrawLeft() {
    ProgressBar bar = new ProgressBar(err, "scanned", 0, true);
    bar.update(5, "12 stale, 3 missing");
    bar.update(9, "");
    String drawn = written();
    assertThat(drawn).doesNotContain("\n").startsWith("\r   scanned 5");
    String second = drawn.substring(drawn.lastIndexOf('\r') + 1);
    String first = drawn.substring(1, drawn.lastIndexOf('\r'));
    assertThat(second).startsWith("   scanned 9").hasSameSizeAs(first).endsWith(" ");
    bar.finish(9, "");
    assertThat(written()).endsWith("\n").containsOnlyOnce("\n");
  }

  @Test
  void aFailingJobsErrorStartsALineOfItsOwn() {
    ProgressBar bar = new ProgressBar(err, "deleting", 10, true);
    bar.update(3, "");
    // The job fails: the command line reports it on the same stream.
    int code =
        Main.run(
            new String[] {
              "put", "--store=memory://bar?store=bar-test", "--pk", "id:S", "--file", "/no/such"
            },
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            err);
    assertThat(code).isEqualTo(ExitCode.USAGE);
    String[] lines = written().split("\n");
    assertThat(lines).hasSize(2);
    assertThat(lines[0]).startsWith("\r   deleting [");
    assertThat(lines[1]).startsWith("stowage: ");
    // Once the line is ended, nothing more is added.
    ProgressBar.endOpenLine(err);
    bar.endLine();
    assertThat(written().split("\n", -1)).hasSize(3);
  }

  @Test
  void anInterruptedJobEndsItsLineBeforeTheResumeHint() {
    ProgressBar bar = new ProgressBar(err, "scanned", 0, true);
    bar.update(7, "");
    bar.endLine();
    err.println("interrupted; resume with: --resume t");
    String[] lines = written().split("\n");
    assertThat(lines).hasSize(2);
    assertThat(lines[0]).startsWith("\r   scanned 7");
    assertThat(lines[1]).isEqualTo("interrupted; resume with: --resume t");
    // On a log there is no open line to end.
    ByteArrayOutputStream plain = new ByteArrayOutputStream();
    ProgressBar logBar =
        new ProgressBar(new PrintStream(plain, true, StandardCharsets.UTF_8), "x", 0, false);
    logBar.update(1, "");
    logBar.endLine();
    assertThat(plain.size()).isZero();
  }

  @Test
  void standardErrorIsATerminalWhenItsDescriptorNamesATerminalDevice(@TempDir Path dir)
      throws Exception {
    Path pts = Files.createSymbolicLink(dir.resolve("pts"), Path.of("/dev/pts/3"));
    Path tty = Files.createSymbolicLink(dir.resolve("tty"), Path.of("/dev/tty1"));
    Path file = Files.createSymbolicLink(dir.resolve("file"), dir.resolve("err.log"));
    Path pipe = Files.createSymbolicLink(dir.resolve("pipe"), Path.of("pipe:[12345]"));
    assertThat(ProgressBar.stderrIsTerminalDevice(pts)).isTrue();
    assertThat(ProgressBar.stderrIsTerminalDevice(tty)).isTrue();
    assertThat(ProgressBar.stderrIsTerminalDevice(file)).isFalse();
    assertThat(ProgressBar.stderrIsTerminalDevice(pipe)).isFalse();
    assertThat(ProgressBar.stderrIsTerminalDevice(dir.resolve("absent"))).isNull();
  }
}
