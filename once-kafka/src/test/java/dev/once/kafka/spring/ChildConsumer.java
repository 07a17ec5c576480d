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
import javax.sql.DataSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The consuming application in a JVM of its own, for a test to kill with SIGKILL: one inbox
 * consumer on one listener thread, no relay. It prints {@code APPLIED <message id>} after each of
 * its transactions committed; after the one of the target message committed, it writes the target's
 * id to the signal file and blocks that thread forever, before the listener could commit the
 * record's offset.
 *
 * <p>Arguments: run id, bootstrap servers, target message id, signal file. The JDBC URL is in the
 * environment variable {@code CHILD_JDBC_URL}.
 */
public final class ChildConsumer {
  private ChildConsumer() {}

  /** The command that starts a child, on this JVM's class path. */
  static List<String> command(String run, String servers, UUID target, Path signal) {
    return List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m",
        "-XX:TieredStopAtLevel=1",
        "-cp",
        System.getProperty("java.class.path"),
        ChildConsumer.class.getName(),
        run,
        servers,
        target.toString(),
        signal.toString());
  }

  public static void main(String[] args) {
    List<String> properties =
        new ArrayList<>(
            TransportApps.properties(args[0], args[1], System.getenv("CHILD_JDBC_URL")));
    properties.addAll(
        List.of(
            "child.target=" + args[2],
            "child.signal=" + args[3],
            "once.outbox.relay.enabled=false",
            "once.kafka.consumer.concurrency=1",
            // Small batches, so the target's is not the whole topic; a dead member is noticed in
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
      UUID target = UUID.fromString(environment.getRequiredProperty("child.target"));
      Path signal = Path.of(environment.getRequiredProperty("child.signal"));
      CountDownLatch never = new CountDownLatch(1);
      consumer.failing =
          message -> {
            AfterCommit.run(
                () -> {
                  System.out.println("APPLIED " + message.messageId());
                  System.out.flush();
                  if (message.messageId().equals(target)) {
                    try {
                      Files.writeString(signal, target.toString());
                    } catch (IOException e) {
                      throw new UncheckedIOException(e);
                    }
                    // Committed in the database; the offset is committed only after this returns.
                    awaitForever(never);
                  }
                });
            return false;
          };
      return target;
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
