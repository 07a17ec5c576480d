package dev.once.spring.internal;

import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import org.springframework.boot.thread.Threading;
import org.springframework.core.env.Environment;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.core.task.VirtualThreadTaskExecutor;

/**
 * Where Once's own threads come from: the relay's coordinator, heartbeat and workers, and the
 * starter's background jobs (purges, gauges, load shedding). With {@code
 * spring.threads.virtual.enabled=true} on Java 21 or later (Spring Boot's own rule, {@link
 * Threading#VIRTUAL}) they are virtual threads; otherwise platform threads. The user of a factory
 * names its threads and makes them daemons. once-kafka's listener containers run their consumers on
 * {@link #executor(String)}.
 */
public final class OnceThreads {
  private static final OnceThreads PLATFORM = new OnceThreads(false);

  private final boolean virtual;

  private OnceThreads(boolean virtual) {
    this.virtual = virtual;
  }

  /** Virtual threads if the environment asks for them and the JVM has them, else platform ones. */
  public static OnceThreads of(Environment environment) {
    return Threading.VIRTUAL.isActive(environment) ? new OnceThreads(true) : PLATFORM;
  }

  /** Platform threads, whatever the environment says. */
  public static OnceThreads platform() {
    return PLATFORM;
  }

  /** Whether the threads are virtual. */
  public boolean virtual() {
    return virtual;
  }

  /** A factory of new, unstarted threads of this kind. */
  public ThreadFactory factory() {
    return virtual ? new VirtualThreadTaskExecutor().getVirtualThreadFactory() : Thread::new;
  }

  /**
   * An executor that runs each task on a new virtual thread named {@code prefix} and a number, or
   * empty for platform threads (the caller keeps its own default).
   */
  public Optional<AsyncTaskExecutor> executor(String prefix) {
    return virtual ? Optional.of(new VirtualThreadTaskExecutor(prefix)) : Optional.empty();
  }

  @Override
  public String toString() {
    return virtual ? "virtual threads" : "platform threads";
  }
}
