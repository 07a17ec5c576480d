package dev.once.verify.check;

import dev.once.embedded.EmbeddedDatabase;
import dev.once.embedded.EmbeddedPostgresServer;
import dev.once.embedded.Login;
import dev.once.postgres.OnceSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.flywaydb.core.Flyway;

/**
 * An embedded PostgreSQL (the once-embedded-postgres module's: database {@code shop} with its owner
 * {@code shop_owner} and the application's role {@link #APPLICATION}) holding the shop's real
 * schema, made by Flyway from the migrations themselves rather than a copy, as the shop's start
 * makes it: Once's scripts in schema {@code once} with history {@code once_schema_history} (as the
 * starter's {@code OnceSchemaMigration} runs them), then the shop's in schema {@code public}, both
 * as the owner, each followed by its {@code afterMigrate.sql} callback with the shop's placeholder
 * {@code application_role} set to {@link #APPLICATION}: so the application role has exactly the
 * shop's grants, and a test can check the checker needs no more. The shop's scripts are its own
 * {@code src/main/resources/db/migration}, copied by this module's pom onto the test classpath as
 * {@value #SHOP_MIGRATIONS}. The corruptions connect as the superuser {@code postgres} (to disable
 * the ledger's guard triggers and drop constraints).
 *
 * <p>The schema and a consistent data set ({@link #SEED}) go into a template database once; {@link
 * #newDatabase} copies it, so each test gets its own database in a few milliseconds.
 */
public final class ShopSchemaDatabase implements AutoCloseable {
  /** Where this module's pom puts the shop's migrations on the test classpath. */
  static final String SHOP_MIGRATIONS = "classpath:shop/db/migration";

  private static final String TEMPLATE = "shop_template";
  private static final Log LOG = LogFactory.getLog(ShopSchemaDatabase.class);

  /** The application role, with the grants of both afterMigrate callbacks. */
  public static final String APPLICATION = "shop_app";

  /**
   * A small shop in a consistent, quiet state, written the way the shop's own statements write
   * (journal rows through the guard trigger, which moves the balances): two accounts; payments
   * succeeded, failed (reversed), pending, and refunded (a refund succeeded and credited, one
   * pending and one failed, neither credited, and one credited at request time as before the shop's
   * V6, failed and reversed); two products; orders placed, reserved, paid, rejected, cancelled
   * after reservation (released), paid then cancelled (refunded, released) and cancelled before
   * reservation (void); the outbox delivered, and one completed idempotency key.
   */
  static final String SEED =
      """
      INSERT INTO client (id, name, created_at) VALUES ('c1', 'Client one', now());
      INSERT INTO account (id, client_id, currency, created_at) VALUES
          ('acc-1', 'c1', 'EUR', now()), ('acc-2', 'c1', 'EUR', now());
      INSERT INTO operation (id, account_id, kind, amount, reverses, created_at) VALUES
          ('dep-1', 'acc-1', 'deposit', 1000, NULL, now()),
          ('dep-2', 'acc-2', 'deposit', 500, NULL, now()),
          ('dep-3', 'acc-1', 'deposit', 5, NULL, now()),
          ('ch-ok', 'acc-1', 'charge', -100, NULL, now()),
          ('ch-failed', 'acc-1', 'charge', -50, NULL, now()),
          ('rv-failed', 'acc-1', 'reversal', 50, 'ch-failed', now()),
          ('ch-pending', 'acc-1', 'charge', -20, NULL, now()),
          ('ch-ref', 'acc-1', 'charge', -200, NULL, now()),
          ('rf-1', 'acc-1', 'refund', 60, 'ch-ref', now()),
          ('rf-3', 'acc-1', 'refund', 30, 'ch-ref', now()),
          ('rv-rf-3', 'acc-1', 'reversal', -30, 'rf-3', now()),
          ('ch-spare', 'acc-2', 'charge', -30, NULL, now()),
          ('ch-order', 'acc-2', 'charge', -30, NULL, now()),
          ('ch-oc', 'acc-2', 'charge', -15, NULL, now()),
          ('rf-oc', 'acc-2', 'refund', 15, 'ch-oc', now());
      INSERT INTO payment (id, client_id, account_id, amount, currency, status, refunded,
                           charge_operation_id, created_at, updated_at) VALUES
          ('pay-ok', 'c1', 'acc-1', 100, 'EUR', 'succeeded', 0, 'ch-ok', now(), now()),
          ('pay-failed', 'c1', 'acc-1', 50, 'EUR', 'failed', 0, 'ch-failed', now(), now()),
          ('pay-pending', 'c1', 'acc-1', 20, 'EUR', 'pending', 0, 'ch-pending', now(), now()),
          ('pay-refunded', 'c1', 'acc-1', 200, 'EUR', 'succeeded', 80, 'ch-ref', now(), now()),
          ('pay-spare', 'c1', 'acc-2', 30, 'EUR', 'succeeded', 0, 'ch-spare', now(), now()),
          ('pay-order', 'c1', 'acc-2', 30, 'EUR', 'succeeded', 0, 'ch-order', now(), now()),
          ('pay-oc', 'c1', 'acc-2', 15, 'EUR', 'succeeded', 15, 'ch-oc', now(), now());
      INSERT INTO refund (id, payment_id, amount, status, operation_id, created_at,
                          credited_at_request) VALUES
          ('ref-1', 'pay-refunded', 60, 'succeeded', 'rf-1', now(), false),
          ('ref-2', 'pay-refunded', 20, 'pending', NULL, now(), false),
          ('ref-3', 'pay-refunded', 30, 'failed', 'rf-3', now(), true),
          ('ref-4', 'pay-refunded', 25, 'failed', NULL, now(), false),
          ('ref-oc', 'pay-oc', 15, 'succeeded', 'rf-oc', now(), false);
      INSERT INTO product (client_id, sku, name, price, currency, initial_stock, restocked,
                           available, reserved, created_at, updated_at) VALUES
          ('c1', 'widget', 'Widget', 10, 'EUR', 100, 0, 95, 5, now(), now()),
          ('c1', 'gadget', 'Gadget', 15, 'EUR', 50, 10, 59, 1, now(), now());
      INSERT INTO orders (id, client_id, account_id, status, total, currency, payment_id,
                          refund_id, created_at, updated_at) VALUES
          ('ord-placed', 'c1', 'acc-2', 'placed', 10, 'EUR', NULL, NULL, now(), now()),
          ('ord-reserved', 'c1', 'acc-2', 'reserved', 35, 'EUR', NULL, NULL, now(), now()),
          ('ord-paid', 'c1', 'acc-2', 'paid', 30, 'EUR', 'pay-order', NULL, now(), now()),
          ('ord-rejected', 'c1', 'acc-2', 'rejected', 30, 'EUR', NULL, NULL, now(), now()),
          ('ord-cancelled', 'c1', 'acc-2', 'cancelled', 40, 'EUR', NULL, NULL, now(), now()),
          ('ord-oc', 'c1', 'acc-2', 'cancelled', 15, 'EUR', 'pay-oc', 'ref-oc', now(), now()),
          ('ord-void', 'c1', 'acc-2', 'cancelled', 10, 'EUR', NULL, NULL, now(), now());
      INSERT INTO order_item (order_id, sku, quantity, price) VALUES
          ('ord-placed', 'widget', 1, 10),
          ('ord-reserved', 'widget', 2, 10), ('ord-reserved', 'gadget', 1, 15),
          ('ord-paid', 'widget', 3, 10),
          ('ord-rejected', 'gadget', 2, 15),
          ('ord-cancelled', 'widget', 4, 10),
          ('ord-oc', 'gadget', 1, 15),
          ('ord-void', 'widget', 1, 10);
      INSERT INTO reservation (order_id, client_id, sku, quantity, state, created_at, updated_at)
      VALUES
          ('ord-reserved', 'c1', 'widget', 2, 'held', now(), now()),
          ('ord-reserved', 'c1', 'gadget', 1, 'held', now(), now()),
          ('ord-paid', 'c1', 'widget', 3, 'held', now(), now()),
          ('ord-rejected', 'c1', 'gadget', 2, 'rejected', now(), now()),
          ('ord-cancelled', 'c1', 'widget', 4, 'released', now(), now()),
          ('ord-oc', 'c1', 'gadget', 1, 'released', now(), now()),
          ('ord-void', 'c1', 'widget', 1, 'void', now(), now());
      INSERT INTO once.outbox (message_id, type, aggregate_id, payload, state, attempts,
                               next_attempt_at, created_at, delivered_at) VALUES
          (gen_random_uuid(), 'order.placed', 'ord-reserved', '{}', 'delivered', 1, now(), now(),
           now()),
          ('00000000-0000-0000-0000-000000000001', 'order.cancelled', 'ord-cancelled', '{}',
           'delivered', 1, now(), now(), now()),
          ('00000000-0000-0000-0000-000000000002', 'order.cancelled', 'ord-oc', '{}',
           'delivered', 1, now(), now(), now());
      INSERT INTO once.inbox (message_id, consumer, received_at) VALUES
          ('00000000-0000-0000-0000-000000000001', 'release-stock', now()),
          ('00000000-0000-0000-0000-000000000002', 'release-stock', now());
      INSERT INTO once.idempotency_key (client_id, idem_key, fingerprint, state, status_code,
                                        content_type, body, created_at, completed_at, expires_at)
      VALUES ('c1', 'key-done', decode(repeat('ab', 32), 'hex'), 'completed', 201,
              'application/json', '{}', now(), now(), now() + interval '1 day');
      """;

  private final Path folder;
  private final EmbeddedDatabase shop;
  private final AtomicInteger databases = new AtomicInteger();

  private ShopSchemaDatabase(Path folder, EmbeddedDatabase shop) {
    this.folder = folder;
    this.shop = shop;
  }

  private static ShopSchemaDatabase shared;

  /**
   * The test JVM's one instance, started on first use and stopped (its folder deleted) when the JVM
   * exits; tests take fresh copies of its template ({@link #newDatabase}), so they never see each
   * other's rows.
   */
  public static synchronized ShopSchemaDatabase shared() throws IOException, SQLException {
    if (shared == null) {
      ShopSchemaDatabase db = start();
      Runtime.getRuntime().addShutdownHook(new Thread(db::close, "shop-schema-database-stop"));
      shared = db;
    }
    return shared;
  }

  /** Starts PostgreSQL and builds the template: schema from the migrations, then {@link #SEED}. */
  private static ShopSchemaDatabase start() throws IOException, SQLException {
    Path folder = Files.createTempDirectory("once-verify-shop-schema");
    EmbeddedPostgresServer server =
        EmbeddedPostgresServer.acquire(folder.resolve("data"), 0, LOG).server();
    ShopSchemaDatabase db = new ShopSchemaDatabase(folder, server.database("shop", LOG));
    try {
      if (!db.shop.application().user().equals(APPLICATION)) {
        throw new IllegalStateException("the module names the roles otherwise: " + db.shop);
      }
      String template = db.shop.createDatabase(TEMPLATE);
      Login owner = db.shop.owner();
      // The shop's placeholder value (ApplicationRole.placeholderValue: quotes doubled; none here).
      Map<String, String> placeholders = Map.of("application_role", APPLICATION);
      Flyway.configure(ShopSchemaDatabase.class.getClassLoader())
          .dataSource(template, owner.user(), owner.password())
          .placeholders(placeholders)
          .schemas(OnceSchema.SCHEMA)
          .createSchemas(true)
          .table("once_schema_history")
          .locations(OnceSchema.LOCATION)
          .load()
          .migrate();
      Flyway.configure(ShopSchemaDatabase.class.getClassLoader())
          .dataSource(template, owner.user(), owner.password())
          .placeholders(placeholders)
          .locations(SHOP_MIGRATIONS)
          .failOnMissingLocations(true)
          .load()
          .migrate();
      try (Connection c = db.connect(TEMPLATE);
          Statement s = c.createStatement()) {
        s.execute(SEED);
      }
    } catch (SQLException | RuntimeException e) {
      db.close();
      throw e;
    }
    return db;
  }

  /** A fresh copy of the seeded template; returns its JDBC URL (user {@code postgres}). */
  public String newDatabase() throws SQLException {
    String name = "shop_" + databases.incrementAndGet();
    try (Connection c = connect("postgres");
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name + " TEMPLATE " + TEMPLATE);
    }
    return jdbcUrl(name);
  }

  public String jdbcUrl(String database) {
    return shop.server().jdbcUrl(database);
  }

  /** The password of {@link #APPLICATION}, random, from its file in the data directory. */
  public String applicationPassword() {
    return shop.application().password();
  }

  /** The password of the superuser {@code postgres}, random, from its file. */
  public String superuserPassword() {
    return shop.server().superuser().password();
  }

  /** A connection as the superuser {@code postgres}, which may corrupt anything. */
  public Connection connect(String database) throws SQLException {
    return shop.connect(database, shop.server().superuser());
  }

  /** A connection as {@link #APPLICATION}, with the shop's grants only. */
  public static Connection connectAsApplication(String jdbcUrl) throws SQLException {
    Login application = running().shop.application();
    return DriverManager.getConnection(jdbcUrl, application.user(), application.password());
  }

  /** A connection as the superuser, by URL. */
  public static Connection connectUrl(String jdbcUrl) throws SQLException {
    Login superuser = running().shop.server().superuser();
    return DriverManager.getConnection(jdbcUrl, superuser.user(), superuser.password());
  }

  private static synchronized ShopSchemaDatabase running() {
    if (shared == null) {
      throw new IllegalStateException("ShopSchemaDatabase.shared() was not called");
    }
    return shared;
  }

  /** Stops the server and deletes its folder. */
  @Override
  public void close() {
    shop.server().stop();
    try (Stream<Path> tree = Files.walk(folder)) {
      for (Path path : tree.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException | UncheckedIOException e) {
      System.err.println("could not delete " + folder + ": " + e);
    }
  }
}
