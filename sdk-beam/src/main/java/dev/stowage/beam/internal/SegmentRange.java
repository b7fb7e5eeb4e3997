package dev.stowage.beam.internal;

import dev.stowage.spi.ScanSegment;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.beam.sdk.coders.CustomCoder;

/**
 * The restriction of a segment read: the part of a group of consecutive segments (one element of a
 * read, see {@link PlanSegmentsFn}) from {@code start} (inclusive) to {@code end} (exclusive).
 *
 * <p>A {@link Position} is a place in the group: segment {@code segment} of the group (0-based) at
 * its start when {@code checkpoint} is null, or after the page that ended at {@code checkpoint}.
 * Checkpoints are the drivers' opaque resume tokens ({@link dev.stowage.spi.SegmentPage}), so two
 * positions in the same segment can only be told equal or not: a range ending inside a segment ends
 * where a page read from the range's start reaches that checkpoint. A range ending at {@code (n,
 * null)} holds whole segments only.
 *
 * <p>{@code narrowed} replaces segments of the group by parts of them that a driver split off
 * ({@link dev.stowage.spi.StorageDriver#splitSegment}): the range reads segment {@code i} of the
 * group as {@code narrowed.get(i)} when there is one. {@code shares} says how much of a whole
 * segment such a part is estimated to hold (the fraction the cut was asked for), so that progress
 * and size estimates count the two parts of a cut segment as the one segment they make up, not as
 * two; a segment without a share counts as one.
 *
 * @param start the first position read
 * @param end the position the read stops at
 * @param narrowed the group's segments this range reads only part of, by their place in the group
 * @param shares the estimated share of a whole segment of each narrowed segment, in (0, 1]
 */
public record SegmentRange(
    Position start,
    Position end,
    SortedMap<Integer, ScanSegment> narrowed,
    SortedMap<Integer, Double> shares) {
  public SegmentRange {
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(end, "end");
    if (start.segment() > end.segment()) {
      throw new IllegalArgumentException("range " + start + " to " + end + " runs backwards");
    }
    // Only the segments this range reaches: both halves of a split keep what lies in them.
    narrowed =
        Collections.unmodifiableSortedMap(
            new TreeMap<>(narrowed.subMap(start.segment(), end.segment() + 1)));
    for (double share : shares.values()) {
      if (!(share > 0 && share <= 1)) {
        throw new IllegalArgumentException("a segment's share is in (0, 1]: " + share);
      }
    }
    shares =
        Collections.unmodifiableSortedMap(
            new TreeMap<>(shares.subMap(start.segment(), end.segment() + 1)));
  }

  /** A range whose narrowed segments each count as a whole one. */
  public SegmentRange(Position start, Position end, SortedMap<Integer, ScanSegment> narrowed) {
    this(start, end, narrowed, new TreeMap<>());
  }

  /** A range of the group's segments as planned. */
  public SegmentRange(Position start, Position end) {
    this(start, end, new TreeMap<>());
  }

  /** The estimated share of a whole segment that segment {@code i} of this range holds. */
  public double share(int i) {
    return shares.getOrDefault(i, 1.0);
  }

  /**
   * Whole segments before {@code p} counted from this range's first segment, each by its {@link
   * #share}, a partly read segment as half its share.
   */
  double units(Position p) {
    double n = 0;
    for (int i = start.segment(); i < p.segment(); i++) {
      n += share(i);
    }
    return n + (p.checkpoint() == null ? 0 : 0.5 * share(p.segment()));
  }

  /** Segments {@code 0} to {@code count - 1} of a group, whole. */
  public static SegmentRange whole(int count) {
    return new SegmentRange(Position.startOf(0), Position.startOf(count));
  }

  /** The segment this range reads at place {@code i} of {@code group}. */
  public ScanSegment segment(int i, List<ScanSegment> group) {
    ScanSegment s = narrowed.get(i);
    return s != null ? s : group.get(i);
  }

  /** Nothing is left between {@code from} and this range's end. */
  boolean exhaustedAt(Position from) {
    return from.segment() > end.segment() || from.equals(end);
  }

  /**
   * A place in a group of segments.
   *
   * @param segment the segment's place in the group, 0-based
   * @param checkpoint null for the segment's start, else the checkpoint of the page read last
   */
  public record Position(int segment, String checkpoint) {
    public Position {
      if (segment < 0) {
        throw new IllegalArgumentException("segment " + segment);
      }
    }

    /** The start of a segment. */
    public static Position startOf(int segment) {
      return new Position(segment, null);
    }

    @Override
    public String toString() {
      return "segment " + segment + (checkpoint == null ? " start" : " after " + checkpoint);
    }
  }

  /** The coder of ranges. */
  public static final class Coder extends CustomCoder<SegmentRange> {
    private static final long serialVersionUID = 1L;
    private static final Coder INSTANCE = new Coder();

    private Coder() {}

    /** The coder. */
    public static Coder of() {
      return INSTANCE;
    }

    @Override
    public void encode(SegmentRange r, OutputStream out) throws IOException {
      DataOutputStream d = new DataOutputStream(out);
      write(d, r.start());
      write(d, r.end());
      d.writeInt(r.narrowed().size());
      for (Map.Entry<Integer, ScanSegment> e : r.narrowed().entrySet()) {
        ScanSegment s = e.getValue();
        d.writeInt(e.getKey());
        writeText(d, s.index());
        d.writeInt(s.number());
        d.writeInt(s.total());
        writeText(d, s.bounds());
      }
      d.writeInt(r.shares().size());
      for (Map.Entry<Integer, Double> e : r.shares().entrySet()) {
        d.writeInt(e.getKey());
        d.writeDouble(e.getValue());
      }
      d.flush();
    }

    @Override
    public SegmentRange decode(InputStream in) throws IOException {
      DataInputStream d = new DataInputStream(in);
      Position start = read(d);
      Position end = read(d);
      int n = d.readInt();
      SortedMap<Integer, ScanSegment> narrowed = new TreeMap<>();
      for (int i = 0; i < n; i++) {
        int at = d.readInt();
        String index = readText(d);
        int number = d.readInt();
        int total = d.readInt();
        narrowed.put(at, new ScanSegment(index, number, total, readText(d)));
      }
      int m = d.readInt();
      SortedMap<Integer, Double> shares = new TreeMap<>();
      for (int i = 0; i < m; i++) {
        int at = d.readInt();
        shares.put(at, d.readDouble());
      }
      return new SegmentRange(start, end, narrowed, shares);
    }

    private static void write(DataOutputStream d, Position p) throws IOException {
      d.writeInt(p.segment());
      writeText(d, p.checkpoint());
    }

    private static Position read(DataInputStream d) throws IOException {
      int segment = d.readInt();
      return new Position(segment, readText(d));
    }

    /** Text or null, as its length (-1 for null) and its UTF-8 bytes. */
    private static void writeText(DataOutputStream d, String s) throws IOException {
      if (s == null) {
        d.writeInt(-1);
      } else {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        d.writeInt(b.length);
        d.write(b);
      }
    }

    private static String readText(DataInputStream d) throws IOException {
      int n = d.readInt();
      if (n < 0) {
        return null;
      }
      byte[] b = new byte[n];
      d.readFully(b);
      return new String(b, StandardCharsets.UTF_8);
    }

    @Override
    public void verifyDeterministic() {}
  }
}
