package dev.once.test.spring;

import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.test.consumer.ConsumerTarget;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import org.springframework.context.ApplicationContext;

/** An application's Once beans as the kit's targets. */
public final class OnceTestBeans {
  private OnceTestBeans() {}

  /**
   * The consumer named {@code name} ({@link InboxConsumer#name()}: an {@code @OnceListener}'s
   * {@code consumer}, or an {@link InboxConsumer} bean's name) behind the context's {@link Inbox}:
   * delivered as the application's transport delivers it, in the application's transactions.
   *
   * @throws IllegalArgumentException if no consumer has that name, listing the names there are
   * @throws org.springframework.beans.factory.NoSuchBeanDefinitionException if the context has no
   *     single {@link Inbox} (Once's starter makes one)
   */
  public static ConsumerTarget consumer(ApplicationContext context, String name) {
    Objects.requireNonNull(name, "name");
    List<InboxConsumer> consumers =
        context.getBeanProvider(InboxConsumer.class).orderedStream().toList();
    for (InboxConsumer consumer : consumers) {
      if (name.equals(consumer.name())) {
        return ConsumerTarget.throughInbox(context.getBean(Inbox.class), consumer);
      }
    }
    TreeSet<String> names = new TreeSet<>();
    consumers.forEach(consumer -> names.add(consumer.name()));
    throw new IllegalArgumentException(
        "the application has no consumer named '" + name + "'; its consumers: " + names);
  }
}
