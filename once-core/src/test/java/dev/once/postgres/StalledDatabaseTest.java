package dev.once.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.idempotency.Fingerprint;
import dev.once.idempotency.HandlerAnswer;
import dev.once.idempotency.IdempotencyEngine;
import dev.once.idempotency.IdempotencyKey;
import dev.once.idempotency.IdempotencyScope;
import dev.once.idempotency.IdempotentOutcome;
import dev.once.json.JsonCanonicalizer;
import dev.once.testing.ConnectionSource;
import dev.once.testing.TestDatabase;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A database that stops answering in the middle of a request (its server process stopped with
 * SIGSTOP, as a stalled server or a network that drops every packet would look to the client): the
 * request fails as {@link IdempotentOutcome.Unavailable} once the lease and {@link
 * dev.once.idempotency.IdempotencyLimits#NETWORK_GRACE} have passed, instead of waiting for the
 * operating system to give up on the socket, and the connection's network timeout is as it was
 * before the request once the request is over.
 */
@Timeout(120)
class StalledDatabaseTest {
  private final IdempotencyEngine engine =
      IdempotencyEngine.builder(PostgresStores.idempotencyStore())
          .lease(Duration.ofSeconds(1))
          .build();
  private final IdempotencyScope scope =
      new IdempotencyScope("stall-" + UUID.randomUUID(), new IdempotencyKey("pay-1"));
  private final Fingerprint fingerprint =
      Fingerprint.of(
          "POST",
          "/v1/payments",
          "application/json",
          "{}".getBytes(StandardCharsets.UTF_8),
          JsonCanonicalizer.create());

  @Test
  void aClaimWhoseServerStopsAnsweringIsUnavailableInsteadOfWaitingForever() throws Exception {
    try (Connection physical = TestDatabase.dataSource().getConnection()) {
      long backend = backendPid(physical);
      AtomicInteger runs = new AtomicInteger();
      signal("STOP", backend);
      IdempotentOutcome outcome;
      try {
        outcome =
            engine.execute(
                kept(physical),
                scope,
                fingerprint,
                tx -> {
                  runs.incrementAndGet();
                  return HandlerAnswer.of(201, "application/json", null, new byte[0]);
                });
      } finally {
        signal("CONT", backend);
      }
      assertThat(outcome).isInstanceOf(IdempotentOutcome.Unavailable.class);
      assertThat(runs).hasValue(0);
    }
  }

  @Test
  void theConnectionsNetworkTimeoutIsAsItWasOnceTheRequestIsOver() throws Exception {
    try (Connection physical = TestDatabase.dataSource().getConnection()) {
      assertThat(physical.getNetworkTimeout()).isZero();
      int[] during = new int[1];
      IdempotentOutcome outcome =
          engine.execute(
              kept(physical),
              scope,
              fingerprint,
              tx -> {
                during[0] = tx.getNetworkTimeout();
                return HandlerAnswer.of(201, "application/json", null, new byte[0]);
              });
      assertThat(outcome).isInstanceOf(IdempotentOutcome.Executed.class);
      assertThat(during[0]).isEqualTo(6_000); // the lease, 1 s, and the grace, 5 s
      assertThat(physical.getNetworkTimeout()).isZero();

      // A stricter timeout of the caller's is kept, and is there again afterwards too.
      physical.setNetworkTimeout(Runnable::run, 2_000);
      engine.execute(
          kept(physical),
          new IdempotencyScope(scope.clientId(), new IdempotencyKey("pay-2")),
          fingerprint,
          tx -> {
            during[0] = tx.getNetworkTimeout();
            return HandlerAnswer.of(201, "application/json", null, new byte[0]);
          });
      assertThat(during[0]).isEqualTo(2_000);
      assertThat(physical.getNetworkTimeout()).isEqualTo(2_000);
    }
  }

  private static long backendPid(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Sends {@code kill -<name>} to the server process that serves one connection. */
  private static void signal(String name, long pid) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).start();
    assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(kill.exitValue()).as("kill -" + name + " " + pid).isZero();
  }

  /**
   * A DataSource that hands out {@code physical} and keeps it open when the request closes it, so
   * that the test can read the connection's state after the request, as a pool's next borrower
   * would find it.
   */
  private static DataSource kept(Connection physical) {
    Connection handle =
        (Connection)
            Proxy.newProxyInstance(
                Connection.class.getClassLoader(),
                new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("close")) {
                    return null;
                  }
                  try {
                    return method.invoke(physical, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    return (ConnectionSource) () -> handle;
  }
}
