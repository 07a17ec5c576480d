package dev.once.spring;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.zaxxer.hikari.HikariDataSource;
import dev.once.spring.outbox.OutboxTestApplication;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * What Once changes in the application's own beans, and only with its leave: by default it wraps
 * the {@code dataSource} bean for the relay's pool and sets the Hikari pool's exception override,
 * and says so in the log at start; {@code once.outbox.relay.pool-size=0} and {@code
 * once.datasource.failover-eviction=false} leave the bean as the application made it.
 */
@ExtendWith(OutputCaptureExtension.class)
@Timeout(60)
class HostBeansTest {
  /** The logger of the relay's wrapping of the {@code dataSource} bean (package-private there). */
  private static final String RELAY_ROUTING = "dev.once.spring.outbox.RelayDataSourceRouting";

  @Test
  void byDefaultOnceWrapsTheDataSourceAndSetsThePoolsOverrideAndLogsBoth(CapturedOutput output) {
    OutboxTestApplication.runner()
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              DataSource bean = context.getBean(DataSource.class);
              assertThat(bean).isNotInstanceOf(HikariDataSource.class);
              HikariDataSource pool = bean.unwrap(HikariDataSource.class);
              assertThat(pool.getExceptionOverride()).isInstanceOf(FailoverEviction.class);
            });
    assertThat(output.getOut())
        .contains("Once wrapped the bean 'dataSource' so that the outbox relay's threads")
        .contains("Once set the exception override of the Hikari pool of bean 'dataSource'");
  }

  /**
   * Each change is logged at start, once, at INFO, naming the bean it changed and the property that
   * turns it off (issue 41, item 2).
   */
  @Test
  void eachChangeIsLoggedOnceAtInfoNamingTheBeanAndTheProperty() {
    ListAppender<ILoggingEvent> routing = listen(RELAY_ROUTING);
    ListAppender<ILoggingEvent> eviction = listen(FailoverEviction.class.getName());
    try {
      OutboxTestApplication.runner().run(context -> assertThat(context).hasNotFailed());
    } finally {
      stop(RELAY_ROUTING, routing);
      stop(FailoverEviction.class.getName(), eviction);
    }
    assertThat(routing.list)
        .singleElement()
        .satisfies(
            event -> {
              assertThat(event.getLevel()).isEqualTo(Level.INFO);
              assertThat(event.getFormattedMessage())
                  .contains("Once wrapped the bean 'dataSource'")
                  .contains("once.outbox.relay.pool-size=0");
            });
    assertThat(eviction.list)
        .singleElement()
        .satisfies(
            event -> {
              assertThat(event.getLevel()).isEqualTo(Level.INFO);
              assertThat(event.getFormattedMessage())
                  .contains("of the Hikari pool of bean 'dataSource'")
                  .contains("once.datasource.failover-eviction=false");
            });
  }

  private static ListAppender<ILoggingEvent> listen(String logger) {
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    Logger log = (Logger) LoggerFactory.getLogger(logger);
    log.addAppender(appender);
    return appender;
  }

  private static void stop(String logger, ListAppender<ILoggingEvent> appender) {
    ((Logger) LoggerFactory.getLogger(logger)).detachAppender(appender);
    appender.stop();
  }

  @Test
  void turnedOffTheApplicationsDataSourceIsLeftAsItIs(CapturedOutput output) {
    OutboxTestApplication.runner()
        .withPropertyValues(
            "once.outbox.relay.pool-size=0", "once.datasource.failover-eviction=false")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              DataSource bean = context.getBean(DataSource.class);
              assertThat(bean).isInstanceOf(HikariDataSource.class);
              assertThat(((HikariDataSource) bean).getExceptionOverride()).isNull();
            });
    assertThat(output.getOut())
        .doesNotContain("Once wrapped the bean")
        .doesNotContain("Once set the exception override");
  }
}
