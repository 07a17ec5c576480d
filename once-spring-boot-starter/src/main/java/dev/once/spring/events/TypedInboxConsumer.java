package dev.once.spring.events;

import dev.once.inbox.BatchInboxConsumer;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.function.SingletonSupplier;

/**
 * The inbox consumer of the {@link OnceListener} methods that share one consumer name: reads each
 * event into its method's record ({@link EventCodec}), then calls the method, in the inbox's
 * transaction. The listener beans are looked up on the first event, not when the consumer is made,
 * so a listener may depend on anything (such as the services that publish). Made by {@link #of}: a
 * {@link BatchInboxConsumer} when every method of the consumer allows batches ({@link
 * OnceListener#batch()}); as a bean, by {@link #ofBeans}, whose arguments are names only, so that
 * Spring AOT can write its bean definition out. Thread-safe.
 */
class TypedInboxConsumer implements InboxConsumer {
  private final String name;
  private final Map<String, ListenerMethod> byType;
  private final BeanFactory beans;
  private final Supplier<EventCodec> codec;

  TypedInboxConsumer(
      String name,
      Map<String, ListenerMethod> byType,
      BeanFactory beans,
      Supplier<EventCodec> codec) {
    this.name = name;
    this.byType = Map.copyOf(byType);
    this.beans = beans;
    this.codec = codec;
  }

  /** The consumer of {@code byType}, batching if every one of its methods allows it. */
  static TypedInboxConsumer of(
      String name,
      Map<String, ListenerMethod> byType,
      BeanFactory beans,
      Supplier<EventCodec> codec) {
    boolean batch = byType.values().stream().allMatch(ListenerMethod::batch);
    return batch
        ? new Batching(name, byType, beans, codec)
        : new TypedInboxConsumer(name, byType, beans, codec);
  }

  /**
   * The consumer {@code name} of the {@link OnceListener} methods on the beans {@code beanNames}:
   * the factory method of the {@code onceListener:<consumer>} beans ({@link
   * OnceListenerRegistrar}). The methods are found again from the beans' types, so that the bean
   * definition holds only names and AOT can generate code for it.
   *
   * @throws IllegalStateException if a listener method has the wrong shape, two take one event
   *     type, or none of {@code beanNames} has a listener of {@code name}
   */
  static TypedInboxConsumer ofBeans(
      String name, List<String> beanNames, BeanFactory beans, ObjectProvider<EventCodec> codec) {
    Map<String, ListenerMethod> byType =
        ListenerMethod.byConsumer(ListenerMethod.onBeans(beans, beanNames)).get(name);
    if (byType == null) {
      throw new IllegalStateException(
          "No @OnceListener method of consumer " + name + " on the beans " + beanNames);
    }
    return of(name, byType, beans, SingletonSupplier.of(codec::getObject)); // looked up once
  }

  /** The consumer of listeners that allow batches: {@link #consume} for each event in turn. */
  static final class Batching extends TypedInboxConsumer implements BatchInboxConsumer {
    Batching(
        String name,
        Map<String, ListenerMethod> byType,
        BeanFactory beans,
        Supplier<EventCodec> codec) {
      super(name, byType, beans, codec);
    }
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Set<String> types() {
    return byType.keySet();
  }

  /** The listener methods, by event type. */
  Map<String, ListenerMethod> listeners() {
    return byType;
  }

  @Override
  public void consume(Connection tx, InboxMessage message) throws Exception {
    ListenerMethod listener = byType.get(message.type());
    if (listener == null) {
      throw new IllegalArgumentException(
          "Consumer " + name + " takes no events of type " + message.type());
    }
    EventCodec.Read read = codec.get().read(listener.event(), message, name);
    Object bean = beans.getBean(listener.beanName());
    Method method = AopUtils.selectInvocableMethod(listener.method(), bean.getClass());
    ReflectionUtils.makeAccessible(method);
    Object[] arguments =
        listener.withMetadata()
            ? new Object[] {
              read.event(),
              new EventMetadata(
                  message.messageId(),
                  message.type(),
                  message.aggregateId(),
                  read.publishedVersion())
            }
            : new Object[] {read.event()};
    try {
      method.invoke(bean, arguments);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Exception exception) {
        throw exception;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw e;
    }
  }

  @Override
  public String toString() {
    return "@OnceListener consumer " + name + " " + byType.values();
  }
}
