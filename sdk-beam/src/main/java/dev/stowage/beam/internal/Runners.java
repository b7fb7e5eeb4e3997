package dev.stowage.beam.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * Beam's runners by the short names the command line takes ({@code direct}, {@code dataflow},
 * {@code flink}, {@code spark}), and the artifact each needs on the class path.
 */
public final class Runners {
  /** Short name → runner class, artifact. */
  private static final Map<String, String[]> KNOWN =
      Map.of(
          "direct",
          new String[] {
            "org.apache.beam.runners.direct.DirectRunner",
            "org.apache.beam:beam-runners-direct-java"
          },
          "dataflow",
          new String[] {
            "org.apache.beam.runners.dataflow.DataflowRunner",
            "org.apache.beam:beam-runners-google-cloud-dataflow-java"
          },
          "flink",
          new String[] {
            "org.apache.beam.runners.flink.FlinkRunner",
            "org.apache.beam:beam-runners-flink-1.19 (or the beam-runners-flink-1.xx of your Flink"
                + " cluster's version)"
          },
          "spark",
          new String[] {
            "org.apache.beam.runners.spark.SparkRunner",
            "org.apache.beam:beam-runners-spark-3 with org.apache.spark:spark-core_2.12 and"
                + " spark-streaming_2.12 3.5.x (provided by a Spark cluster)"
          });

  private Runners() {}

  /**
   * Validated options from command-line arguments; a {@code --runner} given by short name or by
   * Beam's name is checked to be on the class path first.
   *
   * @throws IllegalArgumentException naming the artifact a missing runner needs, or Beam's message
   *     for other bad options
   */
  public static PipelineOptions options(List<String> args) {
    List<String> resolved = new ArrayList<>();
    for (String a : args) {
      if (a.startsWith("--runner=")) {
        resolved.add("--runner=" + runnerClass(a.substring("--runner=".length())));
      } else {
        resolved.add(a);
      }
    }
    return PipelineOptionsFactory.fromArgs(resolved.toArray(String[]::new))
        .withValidation()
        .create();
  }

  /**
   * The class name of a runner given by short name ({@code flink}), Beam's name ({@code
   * FlinkRunner}) or class name, checked to be on the class path.
   */
  public static String runnerClass(String name) {
    String key = name.toLowerCase(Locale.ROOT).replaceAll("runner$", "");
    String[] known = KNOWN.get(key);
    String className = known != null ? known[0] : name;
    try {
      Class.forName(className, false, Runners.class.getClassLoader());
      return className;
    } catch (ClassNotFoundException e) {
      if (known == null) {
        throw new IllegalArgumentException(
            "unknown Beam runner '"
                + name
                + "'; known: direct, dataflow, flink, spark (or a runner's class name)");
      }
      throw new IllegalArgumentException(
          "the "
              + key
              + " runner is not on the class path: add "
              + known[1]
              + " (Beam "
              + org.apache.beam.sdk.util.ReleaseInfo.getReleaseInfo().getVersion()
              + ", the version sdk-beam uses) to run on it");
    }
  }
}
