package dev.once.spring.outbox;

import javax.sql.DataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Wraps the application's {@code dataSource} bean in a {@link RelayRoutingDataSource}, before any
 * other bean sees it, when the relay runs with a pool of its own (the default): the relay's
 * handlers then write through their own connections. Other DataSource beans are left alone.
 */
final class RelayDataSourceRouting implements BeanPostProcessor {
  static final String BEAN = "dataSource";

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    if (BEAN.equals(beanName)
        && bean instanceof DataSource dataSource
        && !(bean instanceof RelayRoutingDataSource)) {
      return new RelayRoutingDataSource(dataSource);
    }
    return bean;
  }
}
