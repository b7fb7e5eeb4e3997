package dev.stowage.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs benchmarks with JMH's ordinary command-line options and then prints, for every pair declared
 * in {@link #PAIRS}, Stowage's score, its anchor's score from the same run, their ratio (with the
 * range implied by JMH's 99.9% confidence intervals) and the target.
 *
 * <pre>
 * java -cp sdk-bench/target/benchmarks.jar dev.stowage.bench.Compare -f 1 -wi 2 -i 3 -w 2s -r 3s \
 *     -rf json -rff bench-results.json [benchmark regexps]
 * </pre>
 *
 * <p>Without a regexp every benchmark in {@code dev.stowage.bench} runs. All benchmarks here
 * measure average time per operation, so ratios are computed from times.
 */
public final class Compare {
  private Compare() {}

  /** How a ratio is read against its target. */
  enum Kind {
    /** Stowage time / anchor time, target is a maximum (for example 1.05). */
    TIME_AT_MOST("stowage/anchor time", "<="),
    /** Anchor time / Stowage time (= Stowage throughput / anchor throughput), target a minimum. */
    THROUGHPUT_AT_LEAST("stowage/anchor throughput", ">=");

    final String label;
    final String sign;

    Kind(String label, String sign) {
      this.label = label;
      this.sign = sign;
    }
  }

  /**
   * One comparison: two benchmark methods of one class, compared at every parameter combination.
   */
  record Pair(
      String title, String benchClass, String stowage, String anchor, Kind kind, double target) {}

  static final List<Pair> PAIRS = new ArrayList<>();

  static {
    String c = "CodecBench";
    for (String op : List.of("Compress", "Decompress")) {
      PAIRS.add(
          new Pair(
              "codec: " + op.toLowerCase(Locale.ROOT) + " vs zstd-jni",
              c,
              "stowage" + op,
              "zstd" + op,
              Kind.THROUGHPUT_AT_LEAST,
              0.9));
    }
    for (String op : List.of("Encrypt", "Decrypt")) {
      PAIRS.add(
          new Pair(
              "codec: " + op.toLowerCase(Locale.ROOT) + " vs Tink AEAD",
              c,
              "stowage" + op,
              "tink" + op,
              Kind.THROUGHPUT_AT_LEAST,
              0.9));
    }
    for (String op : List.of("CompressEncrypt", "DecryptDecompress")) {
      PAIRS.add(
          new Pair(
              "codec: " + op + " vs zstd-jni + Tink",
              c,
              "stowage" + op,
              "zstdTink" + op,
              Kind.THROUGHPUT_AT_LEAST,
              0.9));
    }
    String e = "ItemEncryptionBench";
    PAIRS.add(
        new Pair(
            "item encrypt+decrypt vs DB-ESDK (HMAC suite)",
            e,
            "stowage",
            "dbEsdkHmac",
            Kind.THROUGHPUT_AT_LEAST,
            5.0));
    PAIRS.add(
        new Pair(
            "item encrypt+decrypt vs DB-ESDK (default ECDSA suite)",
            e,
            "stowage",
            "dbEsdkEcdsa",
            Kind.THROUGHPUT_AT_LEAST,
            5.0));
    String o = "OverflowBench";
    PAIRS.add(
        new Pair("overflow put+get vs by hand", o, "stowage", "byHand", Kind.TIME_AT_MOST, 1.2));
    PAIRS.add(
        new Pair(
            "overflow put+get vs by hand + SHA-256",
            o,
            "stowage",
            "byHandSha256",
            Kind.TIME_AT_MOST,
            Double.NaN));
    String d = "DynamoDbBench";
    for (String op : List.of("Get", "Put", "Query")) {
      PAIRS.add(
          new Pair(
              "dynamodb " + op.toLowerCase(Locale.ROOT) + " vs raw client",
              d,
              "stowage" + op,
              "raw" + op,
              Kind.TIME_AT_MOST,
              1.05));
      PAIRS.add(
          new Pair(
              "dynamodb " + op.toLowerCase(Locale.ROOT) + " vs Enhanced Client",
              d,
              "stowage" + op,
              "enhanced" + op,
              Kind.TIME_AT_MOST,
              Double.NaN));
      PAIRS.add(
          new Pair(
              "  (Enhanced Client vs raw client)",
              d,
              "enhanced" + op,
              "raw" + op,
              Kind.TIME_AT_MOST,
              Double.NaN));
    }
    String t = "ItemTranslationBench";
    PAIRS.add(
        new Pair(
            "translation to map vs Enhanced TableSchema",
            t,
            "stowageToNative",
            "enhancedToNative",
            Kind.TIME_AT_MOST,
            Double.NaN));
    PAIRS.add(
        new Pair(
            "translation from map vs Enhanced TableSchema",
            t,
            "stowageFromNative",
            "enhancedFromNative",
            Kind.TIME_AT_MOST,
            Double.NaN));
    String m = "MigrationBench";
    PAIRS.add(
        new Pair(
            "migration vs slower side's raw writes",
            m,
            "migrate",
            "rawWrites",
            Kind.THROUGHPUT_AT_LEAST,
            0.8));
  }

  /** Runs JMH with {@code args} and prints the comparison table. */
  public static void main(String[] args) throws RunnerException {
    CommandLineOptions cmd;
    try {
      cmd = new CommandLineOptions(args);
    } catch (CommandLineOptionException e) {
      System.err.println("bad JMH options: " + e.getMessage());
      System.exit(2);
      return;
    }
    OptionsBuilder builder = new OptionsBuilder();
    if (cmd.getIncludes().isEmpty()) {
      builder.include("dev\\.stowage\\.bench\\..*");
    }
    Options options = builder.parent(cmd).build();
    Collection<RunResult> results = new Runner(options).run();
    System.out.println();
    System.out.print(table(results));
  }

  /** The comparison table of a run, one line per pair and parameter combination present. */
  static String table(Collection<RunResult> results) {
    // class -> params -> method -> result
    Map<String, Map<String, Map<String, Result<?>>>> byClass = new LinkedHashMap<>();
    for (RunResult r : results) {
      String full = r.getParams().getBenchmark();
      int dot = full.lastIndexOf('.');
      String method = full.substring(dot + 1);
      String cls = full.substring(full.lastIndexOf('.', dot - 1) + 1, dot);
      Map<String, String> params = new TreeMap<>();
      for (String k : r.getParams().getParamsKeys()) {
        params.put(k, r.getParams().getParam(k));
      }
      byClass
          .computeIfAbsent(cls, x -> new LinkedHashMap<>())
          .computeIfAbsent(params.isEmpty() ? "" : params.toString(), x -> new LinkedHashMap<>())
          .put(method, r.getPrimaryResult());
    }
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "%-52s %-24s %14s %14s %-8s %7s %-17s %s%n",
            "comparison",
            "params",
            "stowage",
            "anchor",
            "unit",
            "ratio",
            "(99.9% range)",
            "target"));
    for (Pair p : PAIRS) {
      var perParams = byClass.get(p.benchClass());
      if (perParams == null) {
        continue;
      }
      perParams.forEach(
          (params, methods) -> {
            Result<?> s = methods.get(p.stowage());
            Result<?> a = methods.get(p.anchor());
            if (s == null || a == null) {
              return;
            }
            out.append(line(p, params, s, a));
          });
    }
    return out.toString();
  }

  private static String line(Pair p, String params, Result<?> s, Result<?> a) {
    double sv = s.getScore(), av = a.getScore();
    double se = finiteOrZero(s.getScoreError()), ae = finiteOrZero(a.getScoreError());
    double ratio, lo, hi;
    if (p.kind() == Kind.TIME_AT_MOST) {
      ratio = sv / av;
      lo = Math.max(0, sv - se) / (av + ae);
      hi = (sv + se) / Math.max(1e-12, av - ae);
    } else {
      ratio = av / sv;
      lo = Math.max(0, av - ae) / (sv + se);
      hi = (av + ae) / Math.max(1e-12, sv - se);
    }
    String target;
    if (Double.isNaN(p.target())) {
      target = "(for reference)";
    } else {
      boolean met = p.kind() == Kind.TIME_AT_MOST ? ratio <= p.target() : ratio >= p.target();
      target = p.kind().sign + " " + p.target() + (met ? "  met" : "  NOT met");
    }
    return String.format(
        Locale.ROOT,
        "%-52s %-24s %14.3f %14.3f %-8s %7.3f %-17s %s%n",
        p.title(),
        params,
        sv,
        av,
        s.getScoreUnit(),
        ratio,
        se >= sv || ae >= av
            ? "(noise > score)"
            : String.format(Locale.ROOT, "(%.2f-%.2f)", lo, hi),
        target + "  [" + p.kind().label + "]");
  }

  private static double finiteOrZero(double d) {
    return Double.isFinite(d) ? d : 0;
  }
}
