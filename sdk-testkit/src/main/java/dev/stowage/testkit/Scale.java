package dev.stowage.testkit;

/**
 * How large the heavy contracts of the conformance kit run. {@link #full()} is what the issue asks
 * for and what the in-memory reference driver runs on every build; a driver whose emulator is too
 * slow for it may lower counts with the {@code with…} methods, and every lowered count stays above
 * a floor that still proves the contract. Immutable and thread-safe.
 *
 * <p>The counts and their floors:
 *
 * <ul>
 *   <li>{@code roundTripSamples} — generated items put and read back (full 200; floor 50).
 *   <li>{@code raceThreads} — threads racing a put-if-absent on one key (full 16; floor 8).
 *   <li>{@code counterThreads} × {@code counterIncrements} — concurrent increments of one counter
 *       (full 16 × 500; floors 4 threads and 50 increments each, so contention stays real).
 *   <li>{@code pagingItems} — items of the partition paged with page sizes 7 and 100, forward and
 *       backward (full 10,000; floor 1,000 = ten pages of the largest size).
 *   <li>{@code pageSizeOneItems} — items paged one by one, the slowest walk (full 10,000; floor
 *       300), walked over the first items of the same partition (a sort-key range).
 *   <li>{@code deleteItems} — items removed by the delete-by-index job, interrupted midway and
 *       resumed (full 10,000; floor 1,000 = ten pages).
 *   <li>{@code batchItems} — items in one batch put, get and delete (full 1,200; floor 1,100, above
 *       every backend's native batch limit: DynamoDB 25/100, Datastore 500/1,000, Azure 100).
 * </ul>
 *
 * @param roundTripSamples generated items in the round-trip contract
 * @param raceThreads threads in the put-if-absent race
 * @param counterThreads threads incrementing one counter
 * @param counterIncrements increments per counter thread
 * @param pagingItems items paged with page sizes 7 and 100
 * @param pageSizeOneItems items paged with page size 1
 * @param deleteItems items deleted by the delete-by-index contract
 * @param batchItems items per batch contract
 */
public record Scale(
    int roundTripSamples,
    int raceThreads,
    int counterThreads,
    int counterIncrements,
    int pagingItems,
    int pageSizeOneItems,
    int deleteItems,
    int batchItems) {

  private static final Scale FULL = new Scale(200, 16, 16, 500, 10_000, 10_000, 10_000, 1_200);

  /**
   * Validates the counts.
   *
   * @throws IllegalArgumentException if a count is below its floor
   */
  public Scale {
    atLeast("roundTripSamples", roundTripSamples, 50);
    atLeast("raceThreads", raceThreads, 8);
    atLeast("counterThreads", counterThreads, 4);
    atLeast("counterIncrements", counterIncrements, 50);
    atLeast("pagingItems", pagingItems, 1_000);
    atLeast("pageSizeOneItems", pageSizeOneItems, 300);
    atLeast("deleteItems", deleteItems, 1_000);
    atLeast("batchItems", batchItems, 1_100);
    if (pageSizeOneItems > pagingItems) {
      throw new IllegalArgumentException(
          "pageSizeOneItems ("
              + pageSizeOneItems
              + ") cannot exceed pagingItems ("
              + pagingItems
              + ")");
    }
  }

  /** The full size the issue asks for; what the in-memory driver runs. */
  public static Scale full() {
    return FULL;
  }

  /** This scale with fewer generated round-trip items. */
  public Scale withRoundTripSamples(int n) {
    return new Scale(
        n,
        raceThreads,
        counterThreads,
        counterIncrements,
        pagingItems,
        pageSizeOneItems,
        deleteItems,
        batchItems);
  }

  /** This scale with another number of put-if-absent racers. */
  public Scale withRaceThreads(int n) {
    return new Scale(
        roundTripSamples,
        n,
        counterThreads,
        counterIncrements,
        pagingItems,
        pageSizeOneItems,
        deleteItems,
        batchItems);
  }

  /** This scale with another counter workload: {@code threads} × {@code increments}. */
  public Scale withCounter(int threads, int increments) {
    return new Scale(
        roundTripSamples,
        raceThreads,
        threads,
        increments,
        pagingItems,
        pageSizeOneItems,
        deleteItems,
        batchItems);
  }

  /** This scale with other paging sizes (all items, and those walked one per page). */
  public Scale withPaging(int items, int pageSizeOne) {
    return new Scale(
        roundTripSamples,
        raceThreads,
        counterThreads,
        counterIncrements,
        items,
        pageSizeOne,
        deleteItems,
        batchItems);
  }

  /** This scale with another delete-by-index size. */
  public Scale withDeleteItems(int n) {
    return new Scale(
        roundTripSamples,
        raceThreads,
        counterThreads,
        counterIncrements,
        pagingItems,
        pageSizeOneItems,
        n,
        batchItems);
  }

  /** This scale with another batch size. */
  public Scale withBatchItems(int n) {
    return new Scale(
        roundTripSamples,
        raceThreads,
        counterThreads,
        counterIncrements,
        pagingItems,
        pageSizeOneItems,
        deleteItems,
        n);
  }

  private static void atLeast(String name, int value, int floor) {
    if (value < floor) {
      throw new IllegalArgumentException(
          name + " is " + value + "; below " + floor + " the contract proves nothing");
    }
  }
}
