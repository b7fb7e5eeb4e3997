package dev.stowage.internal;

import dev.stowage.query.Query;
import dev.stowage.query.Scan;
import dev.stowage.spi.Position;

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
 * @param job which job a token belongs to: {@link #PAGE}, {@link #DELETE}, {@link #BACKFILL} or
 *     {@link #REENCRYPT}
 * @param indexFingerprint for an index query, the fingerprint of the index's definition when the
 *     query started ({@link IndexValues#fingerprint}); null for primary-key queries and scans
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
    Integer indexFingerprint) {
  /** A page cursor. */
  public static final int PAGE = 0;

  /** A delete job's token. */
  public static final int DELETE = 1;

  /** An index backfill job's token. */
  public static final int BACKFILL = 2;

  /** A re-encryption job's token. */
  public static final int REENCRYPT = 3;

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
        indexFingerprint);
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
        indexFingerprint);
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
        indexFingerprint);
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
        indexFingerprint);
  }
}
