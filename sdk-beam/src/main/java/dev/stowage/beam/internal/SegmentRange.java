package dev.stowage.beam.internal;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
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
 * @param start the first position read
 * @param end the position the read stops at
 */
public record SegmentRange(Position start, Position end) {
  public SegmentRange {
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(end, "end");
    if (start.segment() > end.segment()) {
      throw new IllegalArgumentException("range " + start + " to " + end + " runs backwards");
    }
  }

  /** Segments {@code 0} to {@code count - 1} of a group, whole. */
  public static SegmentRange whole(int count) {
    return new SegmentRange(Position.startOf(0), Position.startOf(count));
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
      d.flush();
    }

    @Override
    public SegmentRange decode(InputStream in) throws IOException {
      DataInputStream d = new DataInputStream(in);
      return new SegmentRange(read(d), read(d));
    }

    private static void write(DataOutputStream d, Position p) throws IOException {
      d.writeInt(p.segment());
      if (p.checkpoint() == null) {
        d.writeInt(-1);
      } else {
        byte[] b = p.checkpoint().getBytes(StandardCharsets.US_ASCII);
        d.writeInt(b.length);
        d.write(b);
      }
    }

    private static Position read(DataInputStream d) throws IOException {
      int segment = d.readInt();
      int n = d.readInt();
      if (n < 0) {
        return Position.startOf(segment);
      }
      byte[] b = new byte[n];
      d.readFully(b);
      return new Position(segment, new String(b, StandardCharsets.US_ASCII));
    }

    @Override
    public void verifyDeterministic() {}
  }
}
