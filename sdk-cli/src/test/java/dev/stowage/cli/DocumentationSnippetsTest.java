package dev.stowage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * Every {@code ```java} block of the README, {@code docs/*.md} and the modules' READMEs compiles
 * against Stowage's modules, as a user would paste it.
 *
 * <p>A block is compiled in one of three forms:
 *
 * <ul>
 *   <li>starting with {@code import} (after comments): a whole source file, compiled as written;
 *   <li>declaring a top-level type: a source file, with the {@linkplain #IMPORTS usual imports};
 *   <li>anything else: statements, the body of a method, with the usual imports.
 * </ul>
 *
 * <p>An HTML comment on the line before the block (invisible when the Markdown is rendered) says
 * more about it:
 *
 * <ul>
 *   <li>{@code <!-- snippet: given Type name; Type name -->}: what the statements use without
 *       declaring it (the application's clients, a logger): these become the method's parameters;
 *   <li>{@code <!-- snippet: partial REASON -->}: the block is not compiled, for a reason the
 *       comment must give (a fragment that shows one call's shape inside a longer chain). Keep
 *       these rare: a block that can be completed should be.
 * </ul>
 *
 * <p>No block may name an {@code internal} package: users cannot, the module descriptors refuse it.
 * Compiled in this JVM by {@link javax.tools.JavaCompiler} against this test's class and module
 * path, which holds every Stowage module.
 */
class DocumentationSnippetsTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  private static final Pattern OPEN = Pattern.compile("^(\\s*)```java\\s*$");
  private static final Pattern CLOSE = Pattern.compile("^\\s*```\\s*$");
  private static final Pattern MARKER =
      Pattern.compile("^\\s*<!--\\s*snippet:\\s*(given|partial)\\b(.*?)-->\\s*$");
  private static final Pattern TYPE =
      Pattern.compile(
          "(?m)^(?:@\\w+(?:\\([^)]*\\))?\\s+)*(?:(?:public|abstract|final)\\s+)*"
              + "(?:class|interface|record|enum)\\s+\\w+");

  /** What a user of Stowage would have imported (their IDE would add the rest). */
  static final String IMPORTS =
      String.join(
          "\n",
          "import static dev.stowage.item.AttributeType.*;",
          "import dev.stowage.*;",
          "import dev.stowage.capacity.*;",
          "import dev.stowage.cost.*;",
          "import dev.stowage.usage.*;",
          "import dev.stowage.azure.*;",
          "import dev.stowage.azure.blob.*;",
          "import dev.stowage.beam.*;",
          "import dev.stowage.codec.*;",
          "import dev.stowage.console.*;",
          "import dev.stowage.datastore.*;",
          "import dev.stowage.dynamodb.*;",
          "import dev.stowage.gcs.*;",
          "import dev.stowage.item.*;",
          "import dev.stowage.local.*;",
          "import dev.stowage.memory.*;",
          "import dev.stowage.micrometer.*;",
          "import dev.stowage.migrate.*;",
          "import dev.stowage.overflow.*;",
          "import dev.stowage.query.*;",
          "import dev.stowage.s3.*;",
          "import dev.stowage.spi.*;",
          "import dev.stowage.test.*;",
          "import dev.stowage.testkit.*;",
          "import dev.stowage.typed.*;",
          "import java.nio.file.*;",
          "import java.time.*;",
          "import java.util.*;",
          "import com.google.cloud.ServiceOptions;",
          "import com.google.cloud.datastore.Datastore;",
          "import com.google.cloud.datastore.DatastoreOptions;",
          "import com.google.cloud.storage.Storage;",
          "import com.google.cloud.storage.StorageOptions;",
          "import io.micrometer.core.instrument.MeterRegistry;",
          "import io.micrometer.core.instrument.simple.SimpleMeterRegistry;",
          "import org.slf4j.Logger;",
          "import software.amazon.awssdk.services.dynamodb.DynamoDbClient;",
          "import software.amazon.awssdk.services.s3.S3Client;",
          "");

  /** One {@code ```java} block. */
  record Block(Path file, int line, String code, String given, String partialReason) {
    String where() {
      return ROOT.relativize(file) + ":" + line;
    }
  }

  /** A block as a source file; {@code firstLine} is the line of the file where the block starts. */
  record Unit(Block block, String className, String source, int firstLine) {}

  @Test
  void everyJavaBlockOfTheDocumentationCompiles() throws IOException {
    List<Block> blocks = new ArrayList<>();
    for (Path doc : documents()) {
      blocks.addAll(blocks(doc));
    }
    assertThat(blocks)
        .as("documents with java blocks")
        .extracting(b -> ROOT.relativize(b.file()).toString())
        .contains("README.md", "docs/metrics.md", "sdk-testkit/README.md");
    assertThat(blocks)
        .as("blocks naming an internal package")
        .filteredOn(b -> b.code().matches("(?s).*\\bdev\\.stowage(\\.\\w+)*\\.internal\\b.*"))
        .extracting(Block::where)
        .isEmpty();
    List<Block> partial = blocks.stream().filter(b -> b.partialReason() != null).toList();
    assertThat(partial)
        .as("partial blocks without a reason")
        .filteredOn(b -> b.partialReason().isBlank())
        .extracting(Block::where)
        .isEmpty();
    assertThat(partial.size())
        .as("partial blocks: " + partial.stream().map(Block::where).toList())
        .isLessThanOrEqualTo(3);

    List<Unit> units = new ArrayList<>();
    for (Block b : blocks) {
      if (b.partialReason() == null) {
        units.add(unit(b, units.size()));
      }
    }
    assertThat(compile(units)).isEmpty();
  }

  /** The README, docs/*.md and each module's README (examples/ included). */
  private static List<Path> documents() throws IOException {
    List<Path> docs = new ArrayList<>();
    docs.add(ROOT.resolve("README.md"));
    try (Stream<Path> s = Files.list(ROOT.resolve("docs"))) {
      s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    try (Stream<Path> s = Files.list(ROOT)) {
      s.filter(Files::isDirectory)
          .filter(d -> !d.getFileName().toString().startsWith("."))
          .filter(d -> !d.getFileName().toString().equals("node_modules"))
          .map(d -> d.resolve("README.md"))
          .filter(Files::isRegularFile)
          .sorted()
          .forEach(docs::add);
    }
    assertThat(docs).contains(ROOT.resolve("sdk-testkit/README.md"));
    return docs;
  }

  static List<Block> blocks(Path doc) throws IOException {
    List<String> lines = Files.readAllLines(doc, StandardCharsets.UTF_8);
    List<Block> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      Matcher open = OPEN.matcher(lines.get(i));
      if (!open.matches()) {
        continue;
      }
      String indent = open.group(1);
      StringBuilder code = new StringBuilder();
      int j = i + 1;
      for (; j < lines.size() && !CLOSE.matcher(lines.get(j)).matches(); j++) {
        String l = lines.get(j);
        code.append(l.startsWith(indent) ? l.substring(indent.length()) : l.strip()).append('\n');
      }
      if (j == lines.size()) {
        throw new AssertionError(doc + ":" + (i + 1) + ": unclosed ```java block");
      }
      String given = "";
      String partial = null;
      int k = i - 1;
      while (k >= 0 && lines.get(k).isBlank()) {
        k--;
      }
      Matcher m = k >= 0 ? MARKER.matcher(lines.get(k)) : null;
      if (m != null && m.matches()) {
        if (m.group(1).equals("given")) {
          given = m.group(2).strip();
        } else {
          partial = m.group(2).strip();
        }
      }
      out.add(new Block(doc, i + 2, code.toString(), given, partial));
      i = j;
    }
    return out;
  }

  private static Unit unit(Block b, int n) {
    String pkg = "snippets.s" + n;
    String header = "package " + pkg + ";\n";
    String code = b.code();
    if (firstCode(code).startsWith("import ")) {
      return new Unit(b, pkg + "." + mainType(code, b), header + code, 2);
    }
    if (TYPE.matcher(code).find()) {
      String prefix = header + IMPORTS;
      return new Unit(b, pkg + "." + mainType(code, b), prefix + code, lines(prefix) + 1);
    }
    String prefix =
        header
            + IMPORTS
            + "class Snippet {\n"
            + "  @SuppressWarnings(\"unused\")\n"
            + "  void run("
            + parameters(b.given())
            + ") throws Exception {\n";
    return new Unit(b, pkg + ".Snippet", prefix + code + "  }\n}\n", lines(prefix) + 1);
  }

  /** {@code Type a; Type b} to {@code Type a, Type b}. */
  private static String parameters(String given) {
    return String.join(
        ", ", Stream.of(given.split(";")).map(String::strip).filter(s -> !s.isEmpty()).toList());
  }

  private static String mainType(String code, Block b) {
    Matcher m =
        Pattern.compile("(?m)^(?:.*\\s)?(?:class|interface|record|enum)\\s+(\\w+)").matcher(code);
    if (!m.find()) {
      throw new AssertionError(b.where() + ": starts with imports but declares no type");
    }
    return m.group(1);
  }

  /** The block without leading blank lines and comments. */
  private static String firstCode(String code) {
    return code.replaceAll("^(\\s*(//[^\\n]*|/\\*(?s:.*?)\\*/))*\\s*", "");
  }

  private static int lines(String s) {
    return (int) s.chars().filter(c -> c == '\n').count();
  }

  /** Compiles the units; returns one message per error, located in the Markdown. */
  private static List<String> compile(List<Unit> units) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    Path out = Files.createTempDirectory("snippets");
    List<Source> sources = units.stream().map(Source::new).toList();
    try (StandardJavaFileManager files =
        javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      List<String> options =
          List.of("--release", "17", "-proc:none", "-d", out.toString(), "-classpath", classPath());
      StringWriter log = new StringWriter();
      boolean ok = javac.getTask(log, files, diagnostics, options, null, sources).call();
      List<String> errors = new ArrayList<>();
      for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
        if (d.getKind() != Diagnostic.Kind.ERROR) {
          continue;
        }
        if (d.getSource() instanceof Source s) {
          long line = d.getLineNumber() - s.unit.firstLine() + s.unit.block().line();
          errors.add(
              ROOT.relativize(s.unit.block().file())
                  + ":"
                  + line
                  + ": "
                  + d.getMessage(Locale.ROOT)
                  + "\n    in the block at "
                  + s.unit.block().where());
        } else {
          errors.add(d.toString());
        }
      }
      if (!ok && errors.isEmpty()) {
        errors.add(log.toString());
      }
      return errors;
    } finally {
      try (Stream<Path> s = Files.walk(out)) {
        s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** This test's class path and module path: every Stowage module and its dependencies. */
  private static String classPath() {
    List<String> parts = new ArrayList<>();
    for (String p : new String[] {"jdk.module.path", "java.class.path"}) {
      String v = System.getProperty(p);
      if (v != null && !v.isEmpty()) {
        parts.add(v);
      }
    }
    return String.join(File.pathSeparator, parts);
  }

  /** A unit as an in-memory source file. */
  private static final class Source extends SimpleJavaFileObject {
    final Unit unit;

    Source(Unit unit) {
      super(
          URI.create("string:///" + unit.className().replace('.', '/') + Kind.SOURCE.extension),
          Kind.SOURCE);
      this.unit = unit;
    }

    @Override
    public CharSequence getCharContent(boolean ignoreEncodingErrors) {
      return unit.source();
    }
  }
}
