package dev.once.shop.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The shop's invariants as once-verify checks them: one query per file of {@code
 * src/test/resources/invariants}, one row per violation. once-verify's {@code check} and {@code
 * chaos} run the same files (its build copies them), so the tests and the verifier hold the shop to
 * one definition of each.
 */
final class InvariantQueries {
  private InvariantQueries() {}

  /** Fails naming invariant {@code id} and its first violations, if it has any. */
  static void assertHolds(JdbcClient jdbc, String id, String what) {
    assertThat(jdbc.sql(query(id)).query(String.class).list())
        .as("%s (invariants/%s.sql)", what, id)
        .isEmpty();
  }

  private static String query(String id) {
    String path = "/invariants/" + id + ".sql";
    try (InputStream in = InvariantQueries.class.getResourceAsStream(path)) {
      assertThat(in).as(path + " on the test class path").isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
