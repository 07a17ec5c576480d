package dev.once.kafka.spring;

import dev.once.testing.EffectTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The consuming application in a JVM of its own, for a test to kill with SIGKILL: one inbox
 * consumer (a batch consumer: a partition's records of a poll in one transaction) on one listener
 * thread, no relay. After each of its transactions committed it prints {@code COMMITTED} and the
 * ids of the messages the transaction applied, in order. After the first transaction that applied
 * at least two messages once at least {@value #MIN_APPLIED} were applied, it writes the signal file
 * and blocks that thread forever: the batch's transaction committed, its offsets not (the listener
 * commits them only after the call returns).
 *
 * <p>Arguments: run id, bootstrap servers, signal file. The JDBC URL is in the environment variable
 * {@code CHILD_JDBC_URL}.
 */
public final class ChildConsumer {
  /** Messages applied before the child stops after a batch: it is killed mid-stream. */
  static final int MIN_APPLIED = 40;

  private ChildConsumer() {}

  /** The command that starts a child, on this JVM's class path. */
  static List<String> command(String run, String servers, Path signal) {
    return List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m",
        "-XX:TieredStopAtLevel=1",
        "-cp",
        System.getProperty("java.class.path"),
        ChildConsumer.class.getName(),
        run,
        servers,
        signal.toString());
  }

  public static void main(String[] args) {
    List<String> properties =
        new ArrayList<>(
            TransportApps.properties(args[0], args[1], System.getenv("CHILD_JDBC_URL")));
    properties.addAll(
        List.of(
            "child.signal=" + args[2],
            "once.outbox.relay.enabled=false",
            "once.kafka.consumer.concurrency=1",
            // Small batches, so the killed one is not the whole topic; a dead member is noticed in
            // the least session time-out the broker allows.
            "spring.kafka.consumer.max-poll-records=20",
            "spring.kafka.consumer.properties.session.timeout.ms=6000",
            "spring.kafka.consumer.properties.heartbeat.interval.ms=1000"));
    TransportApps.start(properties, Hook.class);
    System.out.println("READY");
    System.out.flush();
    awaitForever(new CountDownLatch(1));
  }

  /**
   * Sets the consumer's hook while the context is built, before the listeners start: no record is
   * applied without it.
   */
  @Configuration(proxyBeanMethods = false)
  static class Hook {
    @Bean
    EffectTable childEffectTable(DataSource dataSource) {
      return new EffectTable(dataSource);
    }

    @Bean
    Object childHook(KafkaTestApplication.EffectConsumer consumer, Environment environment) {
      Path signal = Path.of(environment.getRequiredProperty("child.signal"));
      ThreadLocal<List<UUID>> transaction = new ThreadLocal<>();
      AtomicInteger applied = new AtomicInteger();
      consumer.failing =
          message -> {
            List<UUID> ids = transaction.get();
            if (ids == null) {
              ids = new ArrayList<>();
              transaction.set(ids);
              TransactionSynchronizationManager.registerSynchronization(
                  new Committed(ids, applied, signal, transaction));
            }
            ids.add(message.messageId());
            return false;
          };
      return signal;
    }
  }

  /** After one transaction of the consumer: prints its messages, and stops after the batch. */
  private record Committed(
      List<UUID> ids, AtomicInteger applied, Path signal, ThreadLocal<List<UUID>> transaction)
      implements TransactionSynchronization {
    @Override
    public void afterCommit() {
      System.out.println(
          "COMMITTED " + String.join(" ", ids.stream().map(UUID::toString).toList()));
      System.out.flush();
      if (applied.addAndGet(ids.size()) >= MIN_APPLIED && ids.size() >= 2) {
        try {
          Files.writeString(signal, ids.get(0).toString());
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        // Committed in the database; the offsets are committed only after this returns.
        awaitForever(new CountDownLatch(1));
      }
    }

    @Override
    public void afterCompletion(int status) {
      transaction.remove();
    }
  }

  private static void awaitForever(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
