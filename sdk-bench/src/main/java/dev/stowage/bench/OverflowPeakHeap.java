package dev.stowage.bench;

import dev.stowage.item.Item;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Issue 4's heap target: the heap a put and a get of one large item (default 50 MB) need, through
 * Stowage and by hand ({@link OverflowSides}), reported as multiples of the item size.
 *
 * <p>Two measurements per side:
 *
 * <ol>
 *   <li><b>Smallest heap</b> (the headline): child JVMs with {@code -Xms = -Xmx = N} MB (default
 *       G1) each generate the item, put it, get it and compare; a binary search finds the smallest
 *       N that completes. This bounds the real peak of live data, and it includes everything the
 *       process holds: the application's item, the copy in the in-memory blob store, the item read
 *       back, and the JVM's own few MB. The item read back and the stored copy alone make 3 item
 *       sizes on either side, so the interesting figure is the difference between the sides.
 *   <li><b>Allocation</b> in-process: bytes allocated by the calling thread during the put and
 *       during the get (an upper bound of each operation's transient memory, garbage included).
 * </ol>
 *
 * <pre>
 * java -cp sdk-bench/target/benchmarks.jar dev.stowage.bench.OverflowPeakHeap [sizeMB]
 * </pre>
 */
public final class OverflowPeakHeap {
  private static final int EXIT_OK = 0, EXIT_OOM = 3, EXIT_WRONG = 4;

  private OverflowPeakHeap() {}

  /** Runs the measurement; {@code --once side bytes} is the child mode. */
  public static void main(String[] args) throws Exception {
    if (args.length == 3 && args[0].equals("--once")) {
      System.exit(once(args[1], Integer.parseInt(args[2])));
    }
    int mb = args.length > 0 ? Integer.parseInt(args[0]) : 50;
    int size = mb << 20;
    StringBuilder report = new StringBuilder();
    report.append(
        String.format(
            Locale.ROOT,
            "%-9s %12s %14s %14s %14s%n",
            "side",
            "item MB",
            "min heap MB",
            "put alloc/size",
            "get alloc/size"));
    int[] minHeap = new int[2];
    String[] sides = {"stowage", "byHand"};
    for (int i = 0; i < sides.length; i++) {
      double[] alloc = allocation(sides[i], size);
      minHeap[i] = smallestHeap(sides[i], size, mb);
      report.append(
          String.format(
              Locale.ROOT,
              "%-9s %12d %14d %14.2f %14.2f%n",
              sides[i],
              mb,
              minHeap[i],
              alloc[0],
              alloc[1]));
    }
    report.append(
        String.format(
            Locale.ROOT,
            "peak heap / item size: stowage %.2f, by hand %.2f; Stowage's extra over by hand:"
                + " %.2f item sizes (target: peak heap <= 3 item sizes)%n",
            minHeap[0] / (double) mb,
            minHeap[1] / (double) mb,
            (minHeap[0] - minHeap[1]) / (double) mb));
    System.out.print(report);
  }

  private static OverflowSides.Side side(String name) {
    return switch (name) {
      case "stowage" -> OverflowSides.stowage();
      case "byHand" -> OverflowSides.byHand();
      default -> throw new IllegalArgumentException("unknown side " + name);
    };
  }

  /** Child mode: one put and get in this JVM's heap. */
  private static int once(String sideName, int size) {
    try {
      OverflowSides.Side side = side(sideName);
      Item item = OverflowSides.document("big", Payloads.filled(size));
      side.put(item);
      Item back = side.get("big");
      return back.equals(item) ? EXIT_OK : EXIT_WRONG;
    } catch (OutOfMemoryError e) {
      return EXIT_OOM;
    }
  }

  /** Bytes allocated by this thread during put and during get, each divided by the item size. */
  private static double[] allocation(String sideName, int size) {
    OverflowSides.Side side = side(sideName);
    // Load and initialise every class on the path first, with a small item.
    side.put(OverflowSides.document("warm", Payloads.filled(1 << 20)));
    side.get("warm");
    Item item = OverflowSides.document("big", Payloads.filled(size));
    long put =
        allocated(
            () -> {
              side.put(item);
              return null;
            });
    Item[] back = new Item[1];
    long get = allocated(() -> back[0] = side.get("big"));
    if (!back[0].equals(item)) {
      throw new IllegalStateException(sideName + " changed the item");
    }
    return new double[] {put / (double) size, get / (double) size};
  }

  private static long allocated(Supplier<?> op) {
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long id = Thread.currentThread().getId();
    long before = threads.getThreadAllocatedBytes(id);
    op.get();
    return threads.getThreadAllocatedBytes(id) - before;
  }

  /** The smallest -Xmx (in MB, to 2 MB) in which a child completes the put and get. */
  private static int smallestHeap(String sideName, int size, int mb)
      throws IOException, InterruptedException {
    int hi = 12 * mb + 64;
    if (!fits(sideName, size, hi)) {
      throw new IllegalStateException(sideName + " does not complete even in " + hi + " MB");
    }
    int lo = mb; // the item alone takes that much: cannot fit
    while (hi - lo > 2) {
      int mid = (lo + hi) / 2;
      if (fits(sideName, size, mid)) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi;
  }

  private static boolean fits(String sideName, int size, int heapMb)
      throws IOException, InterruptedException {
    String java =
        System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    Process p =
        new ProcessBuilder(
                List.of(
                    java,
                    "-Xms" + heapMb + "m",
                    "-Xmx" + heapMb + "m",
                    "-cp",
                    System.getProperty("java.class.path"),
                    OverflowPeakHeap.class.getName(),
                    "--once",
                    sideName,
                    Integer.toString(size)))
            .inheritIO()
            .start();
    try {
      if (!p.waitFor(5, TimeUnit.MINUTES)) {
        throw new IllegalStateException("child JVM timed out at " + heapMb + " MB");
      }
    } finally {
      p.destroyForcibly();
    }
    int code = p.exitValue();
    if (code == EXIT_WRONG) {
      throw new IllegalStateException(sideName + " changed the item at " + heapMb + " MB");
    }
    return code == EXIT_OK;
  }
}
