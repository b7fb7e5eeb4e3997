package dev.stowage.bench;

import java.util.List;

/** One page of a raw parallel read, handed over on the thread that read it. */
interface PageSink<T> {
  void accept(List<T> page) throws Exception;
}
