package dev.once.shop.support;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.springframework.boot.test.context.TestComponent;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;

/**
 * Records the transactions that the shop's request threads begin while recording is on. Boot adds
 * every {@link TransactionExecutionListener} bean to the transaction manager it creates; the bean
 * is part of the one shared test context ({@link ShopIntegrationTest} imports it).
 */
@TestComponent
public class TransactionRecorder implements TransactionExecutionListener {
  /**
   * A transaction that began.
   *
   * @param name its name (for {@code @Transactional}, the class and method)
   * @param readOnly whether it is read-only
   * @param thread the thread it began on
   */
  public record Begun(String name, boolean readOnly, String thread) {}

  private final ConcurrentLinkedQueue<Begun> begun = new ConcurrentLinkedQueue<>();
  private volatile boolean recording;

  /** Forgets what was recorded and starts recording. */
  public void start() {
    begun.clear();
    recording = true;
  }

  /** Stops recording and returns the transactions begun on Tomcat's request threads since start. */
  public List<Begun> stop() {
    recording = false;
    return begun.stream().filter(b -> b.thread().contains("-exec-")).toList();
  }

  /**
   * Stops recording and returns the transactions begun on the calling thread since start: what a
   * test that calls a relay handler itself caused.
   */
  public List<Begun> stopOnThisThread() {
    recording = false;
    String thread = Thread.currentThread().getName();
    return begun.stream().filter(b -> b.thread().equals(thread)).toList();
  }

  @Override
  public void beforeBegin(TransactionExecution transaction) {
    if (recording) {
      begun.add(
          new Begun(
              transaction.getTransactionName(),
              transaction.isReadOnly(),
              Thread.currentThread().getName()));
    }
  }
}
