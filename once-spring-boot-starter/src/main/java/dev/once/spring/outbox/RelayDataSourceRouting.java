package dev.once.spring.outbox;

import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Wraps the application's {@code dataSource} bean in a {@link RelayRoutingDataSource}, before any
 * other bean sees it, when the relay runs with a pool of its own (the default): the relay's
 * handlers then write through their own connections. Other DataSource beans are left alone. The
 * wrapping is named in the log at start; {@code once.outbox.relay.pool-size=0} turns it off.
 */
final class RelayDataSourceRouting implements BeanPostProcessor {
  private static final Logger log = LoggerFactory.getLogger(RelayDataSourceRouting.class);
  static final String BEAN = "dataSource";

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    if (BEAN.equals(beanName)
        && bean instanceof DataSource dataSource
        && !(bean instanceof RelayRoutingDataSource)) {
      log.info(
          "Once wrapped the bean '{}' so that the outbox relay's threads take their connections"
              + " from a pool of the relay's own (made when '{}' is a Hikari pool; otherwise they"
              + " share it) and every other thread from '{}' as before."
              + " once.outbox.relay.pool-size=0 leaves the bean as it is",
          beanName,
          beanName,
          beanName);
      return new RelayRoutingDataSource(dataSource);
    }
    return bean;
  }
}
