package dev.stowage.internal;

import dev.stowage.query.Query;
import dev.stowage.query.Scan;
import dev.stowage.spi.Position;
import java.util.List;

/**
 * What a sealed cursor carries: the whole original request, where to continue, and the bookkeeping
 * of a delete job.
 *
 * @param namespace the namespace the cursor was issued in
 * @param table the logical table
 * @param expiresAtMillis epoch millis after which the cursor is rejected
 * @param query the original query, or null for a scan
 * @param scan the original scan, or null for a query
 * @param towardAfter true to read items sorting after the anchor, false for before
 * @param anchor the position to continue from, or null for the edge of the range
 * @param anchorInclusive whether the anchor item itself is included
 * @param matched delete jobs: items matched so far
 * @param deleted delete jobs: items deleted so far
 * @param blobsDeleted delete jobs: blobs deleted so far
 * @param job which job a token belongs to: {@link #PAGE}, {@link #DELETE}, {@link #BACKFILL},
 *     {@link #REENCRYPT} or {@link #VERIFY}
 * @param indexFingerprint for an index query, the fingerprint of the index's definition when the
 *     query started ({@link IndexValues#fingerprint}); null for primary-key queries and scans
 * @param findings maintenance jobs: the stale and missing index values found and the items skipped
 *     so far; {@link Findings#NONE} for other tokens
 * @param segments maintenance jobs walking the table in parallel segments: where each segment of
 *     the plan stands, in segment order; null for a job walking it in one scan (then {@code anchor}
 *     is where it stands) and for other tokens
 */
public record CursorState(
    String namespace,
    String table,
    long expiresAtMillis,
    Query query,
    Scan scan,
    boolean towardAfter,
    Position anchor,
    boolean anchorInclusive,
    long matched,
    long deleted,
    long blobsDeleted,
    int job,
    Integer indexFingerprint,
    Findings findings,
    List<SegmentMark> segments) {
  /** A page cursor. */
  public static final int PAGE = 0;

  /** A delete job's token. */
  public static final int DELETE = 1;

  /** An index backfill job's token. */
  public static final int BACKFILL = 2;

  /** A re-encryption job's token. */
  public static final int REENCRYPT = 3;

  /** An index verification job's token. */
  public static final int VERIFY = 4;

  /**
   * What a maintenance job found so far, beyond items scanned and rewritten.
   *
   * @param stale items whose index values disagreed with their attributes
   * @param missing items lacking index values their attributes give
   * @param skipped items that needed a rewrite the backend's limits or Stowage's rules refuse
   */
  public record Findings(long stale, long missing, long skipped) {
    /** Nothing found. */
    public static final Findings NONE = new Findings(0, 0, 0);
  }

  /**
   * Where one segment of a segmented walk stands.
   *
   * @param bounds the segment's {@link dev.stowage.spi.ScanSegment#bounds()}
   * @param checkpoint its last page's checkpoint, or null at its start or when done
   * @param done true once the segment has been walked
   */
  public record SegmentMark(String bounds, String checkpoint, boolean done) {
    public SegmentMark {
      java.util.Objects.requireNonNull(bounds, "bounds");
    }
  }

  public CursorState {
    if (findings == null) {
      findings = Findings.NONE;
    }
    segments = segments == null ? null : List.copyOf(segments);
  }

  /** A state of a job that is not segmented. */
  public CursorState(
      String namespace,
      String table,
      long expiresAtMillis,
      Query query,
      Scan scan,
      boolean towardAfter,
      Position anchor,
      boolean anchorInclusive,
      long matched,
      long deleted,
      long blobsDeleted,
      int job,
      Integer indexFingerprint,
      Findings findings) {
    this(
        namespace,
        table,
        expiresAtMillis,
        query,
        scan,
        towardAfter,
        anchor,
        anchorInclusive,
        matched,
        deleted,
        blobsDeleted,
        job,
        indexFingerprint,
        findings,
        null);
  }

  /** This state with the segments of a segmented walk. */
  public CursorState withSegments(List<SegmentMark> marks) {
    return new CursorState(
        namespace,
        table,
        expiresAtMillis,
        query,
        scan,
        towardAfter,
        anchor,
        anchorInclusive,
        matched,
        deleted,
        blobsDeleted,
        job,
        indexFingerprint,
        findings,
        marks);
  }

  /** A state without maintenance-job findings. */
  public CursorState(
      String namespace,
      String table,
      long expiresAtMillis,
      Query query,
      Scan scan,
      boolean towardAfter,
      Position anchor,
      boolean anchorInclusive,
      long matched,
      long deleted,
      long blobsDeleted,
      int job,
      Integer indexFingerprint) {
    this(
        namespace,
        table,
        expiresAtMillis,
        query,
        scan,
        towardAfter,
        anchor,
        anchorInclusive,
        matched,
        deleted,
        blobsDeleted,
        job,
        indexFingerprint,
        Findings.NONE);
  }

  /** True for the tokens of {@link #BACKFILL}, {@link #REENCRYPT} and {@link #VERIFY} jobs. */
  public boolean isMaintenance() {
    return job == BACKFILL || job == REENCRYPT || job == VERIFY;
  }

  /** This state with maintenance-job findings. */
  public CursorState withFindings(Findings f) {
    return new CursorState(
        namespace,
        table,
        expiresAtMillis,
        query,
        scan,
        towardAfter,
        anchor,
        anchorInclusive,
        matched,
        deleted,
        blobsDeleted,
        job,
        indexFingerprint,
        f,
        segments);
  }

  /** This state with another anchor and direction. */
  public CursorState at(boolean after, Position newAnchor, boolean inclusive) {
    return new CursorState(
        namespace,
        table,
        expiresAtMillis,
        query,
        scan,
        after,
        newAnchor,
        inclusive,
        matched,
        deleted,
        blobsDeleted,
        job,
        indexFingerprint,
        findings,
        segments);
  }

  /** This state with delete-job counters. */
  public CursorState withCounts(long m, long d, long b) {
    return new CursorState(
        namespace,
        table,
        expiresAtMillis,
        query,
        scan,
        towardAfter,
        anchor,
        anchorInclusive,
        m,
        d,
        b,
        job,
        indexFingerprint,
        findings,
        segments);
  }

  /** This state as a token of another job. */
  public CursorState forJob(int kind) {
    return new CursorState(
        namespace,
        table,
        expiresAtMillis,
        query,
        scan,
        towardAfter,
        anchor,
        anchorInclusive,
        matched,
        deleted,
        blobsDeleted,
        kind,
        indexFingerprint,
        findings,
        segments);
  }

  /** This state with a new expiry. */
  public CursorState expiring(long millis) {
    return new CursorState(
        namespace,
        table,
        millis,
        query,
        scan,
        towardAfter,
        anchor,
        anchorInclusive,
        matched,
        deleted,
        blobsDeleted,
        job,
        indexFingerprint,
        findings,
        segments);
  }
}
