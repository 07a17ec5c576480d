package dev.once.kafka.spring;

import dev.once.failures.TransientFailures;
import dev.once.postgres.WalFlush;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.SQLException;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.clients.consumer.RetriableCommitFailedException;

/**
 * A Kafka consumer that makes the database's commits durable before it commits offsets: every
 * {@code commitSync} and {@code commitAsync} first waits for a {@link WalFlush}. The inbox
 * listeners' transactions (one per partition's records of a poll for a batch consumer, one per
 * record otherwise) commit without waiting for the WAL flush, so a hot row is locked only while its
 * transaction runs; this is where they become durable, once per commit of offsets (every commit
 * interval or after a partition's records of a poll, before a failed record by the error handler,
 * at a rebalance, after a dead letter) instead of once per transaction. A flush covers every commit
 * this process saw complete before it, so an offset committed through this consumer is never ahead
 * of an effect that a crash of the database could take back. If the flush fails, no offset is
 * committed: the records are delivered again and the inbox finds those whose effect survived.
 */
final class DurableOffsets implements InvocationHandler {
  private final Consumer<?, ?> consumer;
  private final WalFlush durable;

  private DurableOffsets(Consumer<?, ?> consumer, WalFlush durable) {
    this.consumer = consumer;
    this.durable = durable;
  }

  @SuppressWarnings("unchecked")
  static <K, V> Consumer<K, V> wrap(Consumer<K, V> consumer, WalFlush durable) {
    return (Consumer<K, V>)
        Proxy.newProxyInstance(
            Consumer.class.getClassLoader(),
            new Class<?>[] {Consumer.class},
            new DurableOffsets(consumer, durable));
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    String name = method.getName();
    if (name.equals("commitSync")) {
      flush();
    } else if (name.equals("commitAsync")) {
      try {
        flush();
      } catch (RetriableCommitFailedException e) {
        OffsetCommitCallback callback = callbackOf(args);
        if (callback != null) {
          callback.onComplete(offsetsOf(args), e);
          return null;
        }
        throw e;
      }
    }
    try {
      return method.invoke(consumer, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private void flush() {
    try {
      durable.awaitDurable();
    } catch (SQLException e) {
      throw new RetriableCommitFailedException(
          "offsets not committed: the database's WAL flush failed ("
              + TransientFailures.condition(e)
              + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RetriableCommitFailedException("offsets not committed: interrupted");
    }
  }

  private static OffsetCommitCallback callbackOf(Object[] args) {
    if (args != null) {
      for (Object arg : args) {
        if (arg instanceof OffsetCommitCallback callback) {
          return callback;
        }
      }
    }
    return null;
  }

  @SuppressWarnings("unchecked")
  private static Map<
          org.apache.kafka.common.TopicPartition,
          org.apache.kafka.clients.consumer.OffsetAndMetadata>
      offsetsOf(Object[] args) {
    if (args != null) {
      for (Object arg : args) {
        if (arg instanceof Map<?, ?> map) {
          return (Map<
                  org.apache.kafka.common.TopicPartition,
                  org.apache.kafka.clients.consumer.OffsetAndMetadata>)
              map;
        }
      }
    }
    return Map.of();
  }
}
