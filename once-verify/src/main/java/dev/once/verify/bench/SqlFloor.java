package dev.once.verify.bench;

import dev.once.idempotency.ClaimResult;
import dev.once.idempotency.Fingerprint;
import dev.once.idempotency.IdempotencyEngine;
import dev.once.idempotency.IdempotencyKey;
import dev.once.idempotency.IdempotencyScope;
import dev.once.idempotency.StoredResponse;
import dev.once.json.JsonCanonicalizer;
import dev.once.outbox.Outbox;
import dev.once.outbox.OutboxMessage;
import dev.once.postgres.PostgresStores;
import dev.once.verify.harness.BenchDatabase;
import dev.once.verify.load.Operation;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;

/**
 * The SQL floor: the statements the shop runs for one {@code POST /v1/payments}, in process over
 * JDBC, one connection per thread as the shop's application role, so the difference to the HTTP
 * scenarios is what Spring, Tomcat, JSON and the network add. With Once: the authentication lookup
 * (auto-commit), then one transaction of Once's claim, the charge, the outbox append, and Once's
 * stored answer sent together with the commit, as the starter runs them, through once-core's real
 * {@link IdempotencyEngine} and {@link Outbox}. Plain: the same without the claim and the stored
 * answer.
 */
final class SqlFloor {
  /** The shop's authentication lookup (shop ClientRepository), by the key's SHA-256. */
  static final String AUTH =
      "SELECT c.id FROM api_key k JOIN client c ON c.id = k.client_id"
          + " WHERE k.key_hash = ? AND c.disabled_at IS NULL";

  /**
   * Copied from shop/src/main/java/dev/once/shop/payments/PaymentRepository.java CHARGE, named
   * parameters made positional: 1 operationId, 2 amount, 3 now, 4 account, 5 client, 6 currency, 7
   * paymentId, 8 client, 9 amount, 10 currency, 11 description, 12 now, 13 now.
   */
  static final String CHARGE =
      """
      WITH charge AS (
          INSERT INTO operation (id, account_id, kind, amount, reverses, created_at)
          SELECT ?, id, 'charge', -?, NULL, ?
          FROM account
          WHERE id = ? AND client_id = ? AND currency = ?
          RETURNING id, account_id
      )
      INSERT INTO payment (id, client_id, account_id, amount, currency, description, status,
                           charge_operation_id, created_at, updated_at)
      SELECT ?, ?, charge.account_id, ?, ?, ?, 'pending',
             charge.id, ?, ?
      FROM charge
      RETURNING id, account_id, amount, currency, description, status, refunded, charge_operation_id
      """;

  private static final BigDecimal AMOUNT = new BigDecimal("0.01");
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Base64.Encoder IDS = Base64.getUrlEncoder().withoutPadding();

  private final BenchDatabase db;
  private final byte[] keyHash;
  private final List<String> accounts;
  private final IdempotencyEngine engine =
      IdempotencyEngine.builder(PostgresStores.idempotencyStore()).build();
  private final Outbox outbox = PostgresStores.outbox(Clock.systemUTC());
  private final JsonCanonicalizer canonicalizer = JsonCanonicalizer.create();

  /**
   * @param keyHash SHA-256 of the client's API key, as the shop stores it
   */
  SqlFloor(BenchDatabase db, byte[] keyHash, List<String> accounts) {
    this.db = db;
    this.keyHash = keyHash;
    this.accounts = accounts;
  }

  /** Transactions with Once's claim and stored answer; keys {@code keyPrefix-worker-seq}. */
  Operation.Factory withOnce(String keyPrefix) {
    return index -> new Payer(index, keyPrefix);
  }

  /** The same transactions without Once's statements. */
  Operation.Factory plain() {
    return index -> new Payer(index, null);
  }

  private static String id(String prefix) {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return prefix + "_" + IDS.encodeToString(bytes);
  }

  /** One thread's connection and statements. */
  private final class Payer implements Operation {
    private final int index;
    private final String keyPrefix;
    private final Connection connection;
    private final PreparedStatement auth;
    private final PreparedStatement charge;

    Payer(int index, String keyPrefix) throws SQLException {
      this.index = index;
      this.keyPrefix = keyPrefix;
      this.connection = db.connectAsApplication();
      this.auth = connection.prepareStatement(AUTH);
      this.charge = connection.prepareStatement(CHARGE);
    }

    @Override
    public String run(long seq) throws Exception {
      connection.setAutoCommit(true);
      String client = authenticate();
      if (client == null) {
        return "the API key did not authenticate";
      }
      String account = accounts.get((int) ((index + seq) % accounts.size()));
      connection.setAutoCommit(false);
      try {
        ClaimResult.Acquired claim = null;
        if (keyPrefix != null) {
          byte[] body = HttpScenarios.paymentBody(account).getBytes(StandardCharsets.UTF_8);
          IdempotencyScope scope =
              new IdempotencyScope(client, new IdempotencyKey(keyPrefix + "-" + index + "-" + seq));
          Fingerprint fingerprint =
              Fingerprint.of("POST", "/v1/payments", "application/json", body, canonicalizer);
          ClaimResult result = engine.claim(connection, scope, fingerprint);
          if (!(result instanceof ClaimResult.Acquired)) {
            connection.rollback();
            return "claim of a new key answered " + result;
          }
          claim = (ClaimResult.Acquired) result;
        }
        String payment = charge(client, account);
        if (payment == null) {
          connection.rollback();
          return "the charge wrote nothing (account " + account + ")";
        }
        String payload =
            "{\"paymentId\":\"%s\",\"accountId\":\"%s\",\"amount\":\"0.0100\",\"currency\":\"EUR\",\"chargeOperationId\":\"%s\"}"
                .formatted(payment, account, lastOperation);
        outbox.append(connection, new OutboxMessage("provider.charge", payment, payload));
        if (claim != null) {
          // As the starter does with Spring's JDBC transaction manager: answer and COMMIT in one
          // round trip; the commit below then has nothing to send.
          engine.completeAndCommit(
              connection,
              claim,
              StoredResponse.of(
                  201,
                  "application/json",
                  "/v1/payments/" + payment,
                  answer(payment, account, lastOperation).getBytes(StandardCharsets.UTF_8)));
        }
        connection.commit();
        return null;
      } catch (Exception e) {
        connection.rollback();
        throw e;
      }
    }

    private String lastOperation;

    private String authenticate() throws SQLException {
      auth.setBytes(1, keyHash);
      try (ResultSet rs = auth.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }

    /** The payment's id, or null if the charge wrote nothing. */
    private String charge(String client, String account) throws SQLException {
      OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
      String operation = id("op");
      String payment = id("pay");
      charge.setString(1, operation);
      charge.setBigDecimal(2, AMOUNT);
      charge.setObject(3, now);
      charge.setString(4, account);
      charge.setString(5, client);
      charge.setString(6, "EUR");
      charge.setString(7, payment);
      charge.setString(8, client);
      charge.setBigDecimal(9, AMOUNT);
      charge.setString(10, "EUR");
      charge.setNull(11, Types.VARCHAR);
      charge.setObject(12, now);
      charge.setObject(13, now);
      try (ResultSet rs = charge.executeQuery()) {
        if (!rs.next()) {
          return null;
        }
        lastOperation = rs.getString("charge_operation_id");
        return rs.getString("id");
      }
    }

    @Override
    public void close() throws SQLException {
      connection.close();
    }
  }

  /**
   * The shop's 201 body of a new payment (PaymentController.PaymentView, same fields and order),
   * about 175 bytes.
   */
  static String answer(String payment, String account, String operation) {
    return ("{\"id\":\"%s\",\"accountId\":\"%s\",\"amount\":\"0.0100\",\"currency\":\"EUR\","
            + "\"status\":\"pending\",\"operationId\":\"%s\",\"refunded\":\"0.0000\"}")
        .formatted(payment, account, operation);
  }
}
