package dev.stowage.cli.migrate;

import dev.stowage.item.Key;
import dev.stowage.spi.BatchWriteResult;
import dev.stowage.spi.ForwardingDriver;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.WriteOp;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts the puts each key receives and fails once after a number of batch writes. */
final class RecordingDriver extends ForwardingDriver {
  final Map<Key, AtomicInteger> puts = new ConcurrentHashMap<>();
  final AtomicInteger batches = new AtomicInteger();
  volatile int failAfterBatches = Integer.MAX_VALUE;

  RecordingDriver(StorageDriver delegate) {
    super(delegate);
  }

  @Override
  public BatchWriteResult batchWrite(TableLayout table, List<WriteOp> writes) {
    if (batches.incrementAndGet() > failAfterBatches) {
      throw new IllegalStateException("simulated crash");
    }
    BatchWriteResult r = delegate.batchWrite(table, writes);
    for (WriteOp op : writes) {
      if (!r.unprocessed().contains(op)) {
        puts.computeIfAbsent(op.key(), k -> new AtomicInteger()).incrementAndGet();
      }
    }
    return r;
  }
}
