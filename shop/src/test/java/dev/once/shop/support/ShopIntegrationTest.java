package dev.once.shop.support;

import dev.once.test.faults.OnceTestFaults;
import java.nio.file.Path;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.TestPropertySource;

/**
 * Base of every test that runs the whole shop: one Spring context on a random port and one embedded
 * PostgreSQL (wiped once per JVM), shared by all subclasses because they declare exactly this
 * configuration. Tests talk to the shop over real HTTP and check the database directly. After every
 * test the ledger invariants are checked over all accounts, and the stock invariants over all
 * products, orders and reservations. The once-test kit's fault hooks ({@link OnceTestFaults}) are
 * installed: they act only on requests that carry their header.
 */
@ShopOnEmbeddedPostgres
@TestPropertySource(properties = "shop.admin-token=" + ShopIntegrationTest.ADMIN_TOKEN)
@Import({TransactionRecorder.class, PaymentEvents.class, OnceTestFaults.class})
public abstract class ShopIntegrationTest {
  /** The admin token the test context is configured with. */
  public static final String ADMIN_TOKEN = "test-admin-token-0123456789abcdef";

  /**
   * The embedded database's data directory, shared by every test context of the JVM: {@link
   * ShopOnEmbeddedPostgres#DATA_DIR} resolved.
   */
  public static final String DATA_DIR =
      "target/embedded-pg-" + System.getProperty("once.test.fork", "fork1");

  @LocalServerPort private int port;

  /** Direct access to the shop's database, for setup and for checking what was written. */
  @Autowired protected JdbcClient jdbc;

  /** The transactions that requests begin, when asked to record them. */
  @Autowired protected TransactionRecorder transactions;

  /** The shop over HTTP. */
  protected ShopHttp http;

  /** The shop over a plain socket, for requests that {@link #http} cannot send. */
  protected RawHttp raw;

  @BeforeEach
  void connect() {
    http = new ShopHttp(port, ADMIN_TOKEN);
    raw = new RawHttp(port);
    // Loads the OpenAPI description that every answer is checked against, once per JVM, before
    // the test runs: springdoc takes a second or so to build it on the first request.
    OpenApiContract.of(port);
  }

  @AfterEach
  void ledgerInvariantsHold() {
    LedgerInvariants.assertHold(jdbc);
  }

  @AfterEach
  void stockInvariantsHold() {
    StockInvariants.assertHold(jdbc);
  }

  /** A new API client with its key, created through the admin API. */
  protected TestClient newClient() {
    return TestClient.create(http);
  }

  /**
   * The database as the schema owner, for what the application's role may not do (the shop's own
   * {@link #jdbc} connects as the application's role).
   */
  protected static DataSource ownerDataSource() {
    return DatabaseLogins.owner(Path.of(DATA_DIR));
  }

  /** How many rows the shop's and Once's tables hold now. */
  protected RowCounts rowCounts() {
    return RowCounts.of(jdbc);
  }
}
