package dev.once.spring.metrics;

import org.springframework.context.ApplicationContext;

/**
 * For tests in other packages: re-reads the outbox gauges of a context now, as their thread does.
 */
public final class OutboxGaugesRefresh {
  private OutboxGaugesRefresh() {}

  /** Refreshes the context's {@code onceOutboxGauges} bean. */
  public static void refresh(ApplicationContext context) {
    context.getBean("onceOutboxGauges", OutboxGauges.class).refresh();
  }
}
