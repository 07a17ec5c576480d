package dev.once.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.SQLExceptionOverride;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * Which failures make a Hikari pool drop its connection, and that an application's own override is
 * kept. That the eviction takes effect on a real server is shown by the shop's {@code
 * ReadOnlyDatabaseTest}.
 */
class FailoverEvictionTest {
  private final FailoverEviction eviction = new FailoverEviction();

  @Test
  void aReadOnlyOrDroppedDatabaseEvictsTheConnection() {
    assertThat(eviction.adjudicate(new SQLException("read-only", "25006")))
        .isEqualTo(SQLExceptionOverride.Override.MUST_EVICT);
    assertThat(eviction.adjudicate(new SQLException("dropped", "57P04")))
        .isEqualTo(SQLExceptionOverride.Override.MUST_EVICT);
  }

  @Test
  void otherFailuresLeaveTheDecisionToHikari() {
    assertThat(eviction.adjudicate(new SQLException("duplicate", "23505")))
        .isEqualTo(SQLExceptionOverride.Override.CONTINUE_EVICT);
    assertThat(eviction.adjudicate(new SQLException("reset", "08006")))
        .isEqualTo(SQLExceptionOverride.Override.CONTINUE_EVICT);
    assertThat(eviction.adjudicate(new SQLException("no state")))
        .isEqualTo(SQLExceptionOverride.Override.CONTINUE_EVICT);
  }

  @Test
  void isInstalledInAPoolWithoutAnOverride() {
    try (HikariDataSource pool = new HikariDataSource()) {
      eviction.postProcessBeforeInitialization(pool, "dataSource");
      assertThat(pool.getExceptionOverride()).isSameAs(eviction);
    }
  }

  @Test
  void keepsTheApplicationsOwnOverride() {
    SQLExceptionOverride own = new SQLExceptionOverride() {};
    try (HikariDataSource pool = new HikariDataSource();
        HikariDataSource named = new HikariDataSource()) {
      pool.setExceptionOverride(own);
      named.setExceptionOverrideClassName(OwnOverride.class.getName());
      eviction.postProcessBeforeInitialization(pool, "dataSource");
      eviction.postProcessBeforeInitialization(named, "other");
      assertThat(pool.getExceptionOverride()).isSameAs(own);
      assertThat(named.getExceptionOverride()).isInstanceOf(OwnOverride.class);
    }
  }

  /** An application's override, named by class. */
  public static final class OwnOverride implements SQLExceptionOverride {}
}
