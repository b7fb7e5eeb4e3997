package dev.stowage.internal.usage;

import java.util.Arrays;
import java.util.Random;

/** A seeded Zipf sampler over ranks 0..n-1: rank r has weight 1 / (r + 1)^s. */
public final class Zipf {
  private final double[] cdf;
  private final Random random;

  public Zipf(int n, double s, long seed) {
    cdf = new double[n];
    double sum = 0;
    for (int r = 0; r < n; r++) {
      sum += 1 / Math.pow(r + 1, s);
      cdf[r] = sum;
    }
    for (int r = 0; r < n; r++) {
      cdf[r] /= sum;
    }
    random = new Random(seed);
  }

  public int next() {
    int i = Arrays.binarySearch(cdf, random.nextDouble());
    return Math.min(cdf.length - 1, i < 0 ? -i - 1 : i);
  }
}
