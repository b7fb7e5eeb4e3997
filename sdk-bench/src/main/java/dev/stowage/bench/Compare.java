package dev.stowage.bench;

import java.util.ArrayList;
import java.util.Arrays;
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
      String title,
      String benchClass,
      String stowage,
      String anchor,
      Kind kind,
      double target,
      Map<String, Double> targetByParams) {
    Pair(String title, String benchClass, String stowage, String anchor, Kind kind, double target) {
      this(title, benchClass, stowage, anchor, kind, target, Map.of());
    }

    /** The target at a parameter combination (as printed, for example {@code {size=1024}}). */
    double targetAt(String params) {
      return targetByParams.getOrDefault(params, target);
    }
  }

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
    // Issue 17: 0.85 at 1 KB (Stowage binds every value to table, key and attribute, which the
    // raw anchor does not), 0.95 from 64 KB up.
    for (String op : List.of("Encrypt", "Decrypt")) {
      PAIRS.add(
          new Pair(
              "codec: " + op.toLowerCase(Locale.ROOT) + " vs Tink AEAD",
              c,
              "stowage" + op,
              "tink" + op,
              Kind.THROUGHPUT_AT_LEAST,
              0.95,
              Map.of("{size=1024}", 0.85)));
    }
    for (String op : List.of("Encrypt", "Decrypt")) {
      PAIRS.add(
          new Pair(
              "codec: " + op.toLowerCase(Locale.ROOT) + " vs Tink + per-call binding",
              c,
              "stowage" + op,
              "tink" + op + "Bound",
              Kind.THROUGHPUT_AT_LEAST,
              Double.NaN));
    }
    PAIRS.add(
        new Pair(
            "codec: re-encrypt a decoded value vs Tink AEAD",
            c,
            "stowageReencrypt",
            "tinkEncrypt",
            Kind.THROUGHPUT_AT_LEAST,
            Double.NaN));
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
    String tm = "TypedMappingBench";
    for (String dir : List.of("To", "From")) {
      for (String side : List.of("Record", "Immutable")) {
        PAIRS.add(
            new Pair(
                "typed "
                    + side.toLowerCase(Locale.ROOT)
                    + " "
                    + dir.toLowerCase(Locale.ROOT)
                    + " map vs Enhanced fromImmutableClass",
                tm,
                "typed" + side + dir + "Native",
                "enhancedImmutable" + dir + "Native",
                Kind.TIME_AT_MOST,
                1.0));
      }
      PAIRS.add(
          new Pair(
              "typed " + dir.toLowerCase(Locale.ROOT) + " Item vs hand-written mapping",
              tm,
              "typed" + dir + "Item",
              "hand" + dir + "Item",
              Kind.TIME_AT_MOST,
              Double.NaN));
    }
    String td = "TypedDynamoDbBench";
    for (String op : List.of("Get", "Put")) {
      PAIRS.add(
          new Pair(
              "dynamodb typed " + op.toLowerCase(Locale.ROOT) + " vs untyped",
              td,
              "typed" + op,
              "untyped" + op,
              Kind.TIME_AT_MOST,
              1.05));
    }
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
    PAIRS.add(
        new Pair(
            "overflow overwrite vs by hand + SHA-256",
            "OverflowOverwriteBench",
            "stowage",
            "byHandSha256",
            Kind.TIME_AT_MOST,
            1.2));
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
    // Azure Tables and Datastore drivers against their raw clients, no blob store. Issue 17 sets a
    // target for the Azure put on a table with a sort key; the other lines are reported.
    for (String backend : List.of("AzureTablesBench", "DatastoreBench")) {
      String label = backend.equals("AzureTablesBench") ? "azure" : "datastore";
      for (String op : List.of("get", "put", "query")) {
        double target = label.equals("azure") && op.equals("put") ? 1.15 : Double.NaN;
        PAIRS.add(
            new Pair(
                label + " " + op + " vs raw client",
                backend,
                op + "Stowage",
                op + "Raw",
                Kind.TIME_AT_MOST,
                target));
      }
    }
    // The local store against SQLite through JDBC by hand (reported, no target).
    for (String op : List.of("get", "put", "query")) {
      PAIRS.add(
          new Pair(
              "local store " + op + " vs raw JDBC",
              "LocalStoreBench",
              op + "Stowage",
              op + "Raw",
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
    String u = "UsageTrackingBench";
    for (String op : List.of("Put", "Get")) {
      PAIRS.add(
          new Pair(
              "usage tracking overhead, memory driver " + op.toLowerCase(Locale.ROOT),
              u,
              "tracked" + op,
              "untracked" + op,
              Kind.TIME_AT_MOST,
              1.15));
    }
    String m = "MigrationBench";
    PAIRS.add(
        new Pair(
            "migration vs slower side's raw writes",
            m,
            "migrate",
            "rawWrites",
            Kind.THROUGHPUT_AT_LEAST,
            0.8));
    String sm = "SegmentedMigrationBench";
    PAIRS.add(
        new Pair(
            "segmented migration ddb->ddb vs raw parallel writes",
            sm,
            "migrate",
            "rawWrites",
            Kind.THROUGHPUT_AT_LEAST,
            0.8));
    PAIRS.add(
        new Pair(
            "  (one segment vs raw parallel writes)",
            sm,
            "migrateOneSegment",
            "rawWrites",
            Kind.THROUGHPUT_AT_LEAST,
            Double.NaN));
  }

  /**
   * Runs JMH with {@code args} and prints the comparison table. A leading {@code --rounds N} runs
   * the whole selection N times over (each round writing its own result file) and compares the
   * rounds' median instead of one run.
   */
  public static void main(String[] args) throws RunnerException {
    int rounds = 1;
    if (args.length >= 2 && args[0].equals("--rounds")) {
      rounds = Integer.parseInt(args[1]);
      args = Arrays.copyOfRange(args, 2, args.length);
      if (rounds < 1) {
        System.err.println("--rounds must be at least 1");
        System.exit(2);
      }
    }
    CommandLineOptions cmd;
    try {
      cmd = new CommandLineOptions(args);
    } catch (CommandLineOptionException e) {
      System.err.println("bad JMH options: " + e.getMessage());
      System.exit(2);
      return;
    }
    List<Collection<RunResult>> results = new ArrayList<>();
    for (int round = 1; round <= rounds; round++) {
      OptionsBuilder builder = new OptionsBuilder();
      if (cmd.getIncludes().isEmpty()) {
        builder.include("dev\\.stowage\\.bench\\..*");
      }
      if (rounds > 1 && cmd.getResult().hasValue()) {
        builder.result(roundFile(cmd.getResult().get(), round));
      }
      results.add(new Runner(builder.parent(cmd).build()).run());
    }
    System.out.println();
    System.out.print(table(results));
  }

  /** {@code jmh.json} becomes {@code jmh-round2.json}. */
  static String roundFile(String file, int round) {
    int dot = file.lastIndexOf('.');
    return dot > file.lastIndexOf('/')
        ? file.substring(0, dot) + "-round" + round + file.substring(dot)
        : file + "-round" + round;
  }

  /**
   * The comparison table of one or more rounds, one line per pair and parameter combination
   * present. With one round the range is the one implied by JMH's 99.9% confidence intervals; with
   * several, the scores and the ratio are the rounds' medians and the range is the lowest and
   * highest ratio any round measured, which tells drift on a shared machine from a real difference.
   */
  static String table(List<Collection<RunResult>> rounds) {
    // class -> params -> method -> one result per round
    Map<String, Map<String, Map<String, List<Result<?>>>>> byClass = new LinkedHashMap<>();
    for (Collection<RunResult> round : rounds) {
      for (RunResult r : round) {
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
            .computeIfAbsent(method, x -> new ArrayList<>())
            .add(r.getPrimaryResult());
      }
    }
    boolean several = rounds.size() > 1;
    StringBuilder out = new StringBuilder();
    if (several) {
      out.append("medians of ").append(rounds.size()).append(" rounds\n");
    }
    out.append(header(several ? "(rounds min-max)" : "(99.9% range)"));
    for (Pair p : PAIRS) {
      var perParams = byClass.get(p.benchClass());
      if (perParams == null) {
        continue;
      }
      perParams.forEach(
          (params, methods) -> {
            List<Result<?>> s = methods.get(p.stowage());
            List<Result<?>> a = methods.get(p.anchor());
            if (s == null || a == null || s.size() != a.size()) {
              return;
            }
            out.append(several ? medianLine(p, params, s, a) : line(p, params, s.get(0), a.get(0)));
          });
    }
    return out.toString();
  }

  private static double ratio(Pair p, double stowage, double anchor) {
    return ratio(p.kind(), stowage, anchor);
  }

  /** A ratio as {@code kind} reads it: Stowage's time over the anchor's, or the inverse. */
  static double ratio(Kind kind, double stowage, double anchor) {
    return kind == Kind.TIME_AT_MOST ? stowage / anchor : anchor / stowage;
  }

  private static String medianLine(Pair p, String params, List<Result<?>> s, List<Result<?>> a) {
    double[] ss = new double[s.size()];
    double[] as = new double[s.size()];
    for (int i = 0; i < ss.length; i++) {
      ss[i] = s.get(i).getScore();
      as[i] = a.get(i).getScore();
    }
    return roundsLine(
        p.title(),
        params,
        ss,
        as,
        s.get(0).getScoreUnit(),
        p.kind(),
        p.targetAt(params),
        p.kind().label);
  }

  /**
   * One line of several rounds: the medians of both sides' per-round scores, the median of the
   * rounds' ratios (each round's Stowage score against the same round's anchor score), the lowest
   * and highest round ratio, and the verdict of that median against {@code target} ({@code NaN}:
   * for reference). {@code note} goes in brackets at the end.
   */
  static String roundsLine(
      String title,
      String params,
      double[] stowage,
      double[] anchor,
      String unit,
      Kind kind,
      double target,
      String note) {
    double[] ratios = new double[stowage.length];
    for (int i = 0; i < ratios.length; i++) {
      ratios[i] = ratio(kind, stowage[i], anchor[i]);
    }
    double ratio = median(ratios);
    return line(
        title,
        params,
        median(stowage),
        median(anchor),
        unit,
        ratio,
        range(ratios),
        verdict(kind, ratio, target) + "  [" + note + "]");
  }

  /** {@code (lowest-highest)} of {@code ratios}. */
  static String range(double[] ratios) {
    return String.format(
        Locale.ROOT,
        "(%.2f-%.2f)",
        Arrays.stream(ratios).min().orElseThrow(),
        Arrays.stream(ratios).max().orElseThrow());
  }

  /** {@code <= 1.05 met}, {@code >= 0.9 NOT met}, or {@code (for reference)} without a target. */
  static String verdict(Kind kind, double ratio, double target) {
    if (Double.isNaN(target)) {
      return "(for reference)";
    }
    boolean met = kind == Kind.TIME_AT_MOST ? ratio <= target : ratio >= target;
    return kind.sign + " " + target + (met ? "  met" : "  NOT met");
  }

  /** The median; {@code values} is left as it is. */
  static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  /** The column titles of {@link #line}; {@code rangeLabel} names what the range column holds. */
  static String header(String rangeLabel) {
    return String.format(
        Locale.ROOT,
        "%-52s %-24s %14s %14s %-8s %7s %-17s %s%n",
        "comparison",
        "params",
        "stowage",
        "anchor",
        "unit",
        "ratio",
        rangeLabel,
        "target");
  }

  /** One line of the table. */
  static String line(
      String title,
      String params,
      double stowage,
      double anchor,
      String unit,
      double ratio,
      String range,
      String target) {
    return String.format(
        Locale.ROOT,
        "%-52s %-24s %14.3f %14.3f %-8s %7.3f %-17s %s%n",
        title,
        params,
        stowage,
        anchor,
        unit,
        ratio,
        range,
        target);
  }

  private static String line(Pair p, String params, Result<?> s, Result<?> a) {
    double sv = s.getScore(), av = a.getScore();
    double se = finiteOrZero(s.getScoreError()), ae = finiteOrZero(a.getScoreError());
    double lo, hi;
    if (p.kind() == Kind.TIME_AT_MOST) {
      lo = Math.max(0, sv - se) / (av + ae);
      hi = (sv + se) / Math.max(1e-12, av - ae);
    } else {
      lo = Math.max(0, av - ae) / (sv + se);
      hi = (av + ae) / Math.max(1e-12, sv - se);
    }
    String range =
        se >= sv || ae >= av
            ? "(noise > score)"
            : String.format(Locale.ROOT, "(%.2f-%.2f)", lo, hi);
    return format(p, params, sv, av, s.getScoreUnit(), ratio(p, sv, av), range);
  }

  private static String format(
      Pair p, String params, double sv, double av, String unit, double ratio, String range) {
    String target = verdict(p.kind(), ratio, p.targetAt(params));
    return line(
        p.title(), params, sv, av, unit, ratio, range, target + "  [" + p.kind().label + "]");
  }

  private static double finiteOrZero(double d) {
    return Double.isFinite(d) ? d : 0;
  }
}
