package dev.once.shop.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/**
 * Runs tasks on their own threads, all released at once by a latch when every thread is ready, so
 * that they really overlap instead of running one after the other as threads happen to start.
 */
public final class Concurrently {
  private Concurrently() {}

  /** Runs {@code task(0)} to {@code task(count - 1)} at once and returns their results in order. */
  public static <T> List<T> run(int count, IntFunction<T> task)
      throws InterruptedException, ExecutionException {
    CountDownLatch ready = new CountDownLatch(count);
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService threads = Executors.newFixedThreadPool(count);
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        int n = i;
        futures.add(
            threads.submit(
                () -> {
                  ready.countDown();
                  go.await();
                  return task.apply(n);
                }));
      }
      ready.await();
      go.countDown();
      List<T> results = new ArrayList<>();
      for (Future<T> future : futures) {
        results.add(future.get());
      }
      return results;
    } finally {
      threads.shutdownNow();
    }
  }
}
