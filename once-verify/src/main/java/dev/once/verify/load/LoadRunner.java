package dev.once.verify.load;

import dev.once.verify.stats.Percentiles;
import dev.once.verify.stats.Samples;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs one scenario: {@code workers} platform threads, each running its own {@link Operation} in a
 * closed loop (the next operation starts when the previous one ended), first for the warm-up (not
 * reported), then for the measured window. Throughput and latencies count the operations that
 * started and ended within the window; CPU clocks are read at its two edges.
 */
public final class LoadRunner {
  private final Duration warmup;
  private final Duration window;
  private final CpuClock jvmCpu;
  private final CpuClock postgresCpu;
  private final CpuClock othersCpu;

  /**
   * @param jvmCpu the measured JVM's (the shop's) CPU clock, or {@link CpuClock#NONE}
   * @param postgresCpu PostgreSQL's CPU clock
   * @param othersCpu the CPU clock of every other process on the machine
   */
  public LoadRunner(
      Duration warmup, Duration window, CpuClock jvmCpu, CpuClock postgresCpu, CpuClock othersCpu) {
    this.warmup = warmup;
    this.window = window;
    this.jvmCpu = jvmCpu;
    this.postgresCpu = postgresCpu;
    this.othersCpu = othersCpu;
  }

  /** Runs the scenario and blocks until every worker has stopped. */
  public LoadResult run(String id, String title, int workers, Operation.Factory factory)
      throws InterruptedException {
    Shared shared = new Shared();
    CountDownLatch ready = new CountDownLatch(workers);
    List<Worker> all = new ArrayList<>();
    for (int i = 0; i < workers; i++) {
      Worker worker = new Worker(i, factory, shared, ready);
      all.add(worker);
      worker.thread.start();
    }
    ready.await();
    if (shared.firstProblem.get() != null && shared.errors.get() >= workers) {
      shared.running = false;
      join(all);
      return result(id, title, workers, all, shared, 0, 0, new long[] {-1, -1, -1});
    }
    Thread.sleep(warmup.toMillis());
    long[] before = cpuNanos();
    long start = System.nanoTime();
    shared.windowStart = start;
    Thread.sleep(window.toMillis());
    long end = System.nanoTime();
    long[] spent = cpuNanos();
    shared.running = false;
    join(all);
    for (int i = 0; i < spent.length; i++) {
      spent[i] = before[i] < 0 || spent[i] < 0 ? -1 : Math.max(0, spent[i] - before[i]);
    }
    return result(id, title, workers, all, shared, start, end, spent);
  }

  /** The CPU time of the measured JVM, of PostgreSQL and of the other processes, in that order. */
  private long[] cpuNanos() {
    return new long[] {jvmCpu.cpuNanos(), postgresCpu.cpuNanos(), othersCpu.cpuNanos()};
  }

  private static void join(List<Worker> all) throws InterruptedException {
    for (Worker worker : all) {
      worker.thread.join();
    }
  }

  private static LoadResult result(
      String id,
      String title,
      int workers,
      List<Worker> all,
      Shared shared,
      long start,
      long end,
      long[] cpu) {
    List<Samples> latencies = new ArrayList<>();
    for (Worker worker : all) {
      // Keep only operations that also ended within the window.
      Samples inWindow = new Samples();
      for (int i = 0; i < worker.ends.size(); i++) {
        if (worker.ends.get(i) <= end) {
          inWindow.add(worker.latencies.get(i));
        }
      }
      latencies.add(inWindow);
    }
    long[] sorted = Samples.mergeSorted(latencies);
    long p50 = sorted.length == 0 ? 0 : Percentiles.of(sorted, 0.50);
    long p99 = sorted.length == 0 ? 0 : Percentiles.of(sorted, 0.99);
    return new LoadResult(
        id,
        title,
        workers,
        sorted.length,
        end - start,
        p50,
        p99,
        shared.unexpected.get(),
        shared.errors.get(),
        shared.firstProblem.get(),
        cpu[0],
        cpu[1],
        cpu[2] < 0 || end <= start
            ? Double.NaN
            : cpu[2] / ((double) (end - start) * Runtime.getRuntime().availableProcessors()));
  }

  /** State the coordinator and the workers share. */
  private static final class Shared {
    volatile boolean running = true;
    volatile long windowStart = Long.MAX_VALUE;
    final AtomicLong unexpected = new AtomicLong();
    final AtomicLong errors = new AtomicLong();
    final AtomicReference<String> firstProblem = new AtomicReference<>();
  }

  private static final class Worker implements Runnable {
    final Thread thread;
    final Samples latencies = new Samples();
    final Samples ends = new Samples();
    private final int index;
    private final Operation.Factory factory;
    private final Shared shared;
    private final CountDownLatch ready;

    Worker(int index, Operation.Factory factory, Shared shared, CountDownLatch ready) {
      this.index = index;
      this.factory = factory;
      this.shared = shared;
      this.ready = ready;
      this.thread = new Thread(this, "load-" + index);
      this.thread.setDaemon(true);
    }

    @Override
    public void run() {
      Operation operation;
      try {
        operation = factory.create(index);
      } catch (Exception e) {
        shared.errors.incrementAndGet();
        shared.firstProblem.compareAndSet(null, "could not start worker " + index + ": " + e);
        ready.countDown();
        return;
      }
      ready.countDown();
      try (operation) {
        for (long seq = 0; shared.running; seq++) {
          long start = System.nanoTime();
          String problem;
          try {
            problem = operation.run(seq);
          } catch (Exception e) {
            shared.errors.incrementAndGet();
            shared.firstProblem.compareAndSet(null, e.toString());
            continue;
          }
          long end = System.nanoTime();
          if (problem != null) {
            shared.unexpected.incrementAndGet();
            shared.firstProblem.compareAndSet(null, problem);
          }
          if (start >= shared.windowStart) {
            latencies.add(end - start);
            ends.add(end);
          }
        }
      } catch (Exception e) {
        shared.firstProblem.compareAndSet(null, "could not close worker " + index + ": " + e);
      }
    }
  }
}
