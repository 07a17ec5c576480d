package dev.once.shop.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * For tests that line transactions up behind a row lock the test holds: waits until a number of the
 * stock's statements wait for a lock, and runs tasks that hand back what they threw.
 */
public final class LockWaiters {
  private LockWaiters() {}

  /**
   * Waits (polling the database, bounded to 30 s) until {@code n} stock statements (those that read
   * an order's lines with {@code jsonb_to_recordset}) wait for a lock.
   */
  public static void await(JdbcClient jdbc, int n, String what) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (jdbc.sql(
                """
                SELECT count(*) FROM pg_stat_activity
                WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()
                  AND query LIKE '%jsonb_to_recordset%'
                """)
            .query(Long.class)
            .single()
        < n) {
      assertThat(System.nanoTime() - deadline).as("%d %s", n, what).isNegative();
      Thread.onSpinWait();
    }
  }

  /** The task's result, or the exception it threw: a race goes on whatever one thread meets. */
  public static Callable<Object> attempt(Callable<?> task) {
    return () -> {
      try {
        return task.call();
      } catch (Throwable e) {
        return e;
      }
    };
  }
}
