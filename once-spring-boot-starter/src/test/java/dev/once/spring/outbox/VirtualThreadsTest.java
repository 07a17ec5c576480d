package dev.once.spring.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.outbox.Delivery;
import dev.once.outbox.OutboxRecord;
import dev.once.spring.internal.OnceThreads;
import dev.once.spring.outbox.OutboxTestApplication.Orders;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code spring.threads.virtual.enabled}: on Java 21 or later the relay's workers (and every thread
 * of Once's own) are virtual threads, as Spring Boot's own executors are; without it, or on Java
 * 17, they are platform threads and the relay delivers the same. (The build runs on Java 17, where
 * the virtual case is skipped; run it with a Java 21+ JDK: docs/outbox.md#threads.)
 */
class VirtualThreadsTest {
  private static final String TYPE = "test.threads." + UUID.randomUUID();

  private final BlockingQueue<Thread> handledOn = new ArrayBlockingQueue<>(16);

  private final ApplicationContextRunner runner =
      OutboxTestApplication.runner()
          .withBean("threadRecorder", OutboxHandler.class, () -> new ThreadRecorder(handledOn));

  @Test
  @Timeout(120)
  @EnabledForJreRange(min = JRE.JAVA_21)
  void withVirtualThreadsEnabledTheRelayHandlesRowsOnVirtualThreads() {
    runner
        .withPropertyValues("spring.threads.virtual.enabled=true")
        .run(
            context -> {
              assertThat(context.getBean(OnceThreads.class).virtual()).isTrue();
              Thread worker = deliverOne(context.getBean(Orders.class));
              assertThat(isVirtual(worker)).as("%s is virtual", worker).isTrue();
              assertThat(worker.getName()).startsWith("once-relay-worker-");
            });
  }

  @Test
  @Timeout(120)
  void withoutTheSettingTheRelayHandlesRowsOnPlatformThreads() {
    runner.run(
        context -> {
          assertThat(context.getBean(OnceThreads.class).virtual()).isFalse();
          Thread worker = deliverOne(context.getBean(Orders.class));
          assertThat(isVirtual(worker)).as("%s is virtual", worker).isFalse();
          assertThat(worker.getName()).startsWith("once-relay-worker-");
          assertThat(worker.isDaemon()).isTrue();
        });
  }

  /** Boot's rule: the setting means nothing before Java 21, and nothing breaks. */
  @Test
  @Timeout(120)
  @EnabledForJreRange(max = JRE.JAVA_20)
  void onJava17TheSettingLeavesPlatformThreads() {
    runner
        .withPropertyValues("spring.threads.virtual.enabled=true")
        .run(
            context -> {
              assertThat(context.getBean(OnceThreads.class).virtual()).isFalse();
              assertThat(isVirtual(deliverOne(context.getBean(Orders.class)))).isFalse();
            });
  }

  private Thread deliverOne(Orders orders) throws InterruptedException {
    orders.append(TYPE, "{}");
    Thread thread = handledOn.poll(60, TimeUnit.SECONDS);
    assertThat(thread).as("the row delivered").isNotNull();
    return thread;
  }

  /** {@code Thread.isVirtual()}, which Java 17 does not have: false there. */
  private static boolean isVirtual(Thread thread) {
    try {
      return (boolean) Thread.class.getMethod("isVirtual").invoke(thread);
    } catch (NoSuchMethodException e) {
      return false;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Records the thread each row was handled on. */
  private static final class ThreadRecorder implements OutboxHandler {
    private final BlockingQueue<Thread> handledOn;

    ThreadRecorder(BlockingQueue<Thread> handledOn) {
      this.handledOn = handledOn;
    }

    @Override
    public String type() {
      return TYPE;
    }

    @Override
    public Delivery handle(OutboxRecord message) {
      handledOn.add(Thread.currentThread());
      return Delivery.done();
    }
  }
}
