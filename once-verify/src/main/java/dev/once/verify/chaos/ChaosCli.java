package dev.once.verify.chaos;

import static dev.once.verify.cli.Cli.within;

import dev.once.verify.chaos.ChaosOptions.Attach;
import dev.once.verify.chaos.ChaosOptions.ExternalDatabase;
import dev.once.verify.chaos.ChaosOptions.Replication;
import dev.once.verify.cli.Cli;
import dev.once.verify.cli.SecretFile;
import dev.once.verify.cli.Subcommand;
import dev.once.verify.cli.UsageException;
import dev.once.verify.failover.ReplicatedPostgres;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code chaos}'s command line: its flags, their defaults and how they go together. */
@Command(
    name = "chaos",
    description = {
      "Kills the shops and the provider and faults the provider under a seeded workload, then"
          + " checks that every effect happened exactly once."
    },
    footer = {
      "Self-test of the Kafka checks: --kafka --broken-mode commit-offset-before-transaction",
      "Exit: 0 every check passes, 1 a violation or an incomplete run, 2 wrong flags."
    })
public final class ChaosCli extends Subcommand<ChaosOptions> {
  @Option(
      names = "--shop-jar",
      paramLabel = "PATH",
      description = "the shop's jar (default shop/target/shop.jar)")
  Path shopJar;

  @Option(
      names = "--simulator-jar",
      paramLabel = "PATH",
      description = "psp-simulator's jar (default psp-simulator/target/psp-simulator.jar)")
  Path simulatorJar;

  @Option(
      names = "--duration",
      paramLabel = "D",
      description = "workload time, e.g. 90s, 2m (default 2m)")
  String duration = "2m";

  @Option(
      names = "--kills",
      paramLabel = "K",
      description = "SIGKILLs of a shop during the workload (default 3)")
  Integer kills;

  @Option(
      names = "--simulator-kills",
      paramLabel = "K",
      description = "SIGKILLs of psp-simulator during the workload (default 1)")
  Integer simulatorKills;

  @Option(
      names = "--shops",
      paramLabel = "N",
      description = "shop processes on the one database, 1 to 4 (default 1)")
  Integer shops;

  @Option(
      names = "--provider-faults",
      paramLabel = "P",
      description =
          "percent of provider calls that fault: 5xx, time-outs, lost answers (default 0)")
  int providerFaults;

  @Option(
      names = "--clients",
      paramLabel = "N",
      description = "concurrent virtual clients (default 8)")
  int clients = 8;

  @Option(names = "--accounts", paramLabel = "A", description = "accounts per client (default 2)")
  int accounts = 2;

  @Option(
      names = "--seed",
      paramLabel = "S",
      description = "the schedule's seed (default random, printed)")
  Long seed;

  @Option(
      names = "--quiet-timeout",
      paramLabel = "D",
      description = "wait at most this for the outbox to drain (default 3m)")
  String quietTimeout = "3m";

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "report folder (default chaos-results/<UTC time>)")
  Path out;

  @Option(
      names = "--broken-mode",
      paramLabel = "MODE",
      description = {
        "start the shops with shop.testing.broken-mode=MODE, a guarantee switched off on"
            + " purpose: the run must FAIL (the self-test)"
      })
  String brokenMode;

  @Option(
      names = "--kafka",
      description = {
        "events through Kafka: starts a broker (once-verify kafka) on a free port in the report"
            + " folder, the shops with SHOP_KAFKA_BOOTSTRAP, kills -9 the broker too, starts a"
            + " further shop for a while (a consumer-group rebalance), then reads every event"
            + " topic as an outside consumer and checks it against the database"
      })
  boolean kafka;

  @Option(
      names = "--broker-kills",
      paramLabel = "K",
      description = "SIGKILLs of the Kafka broker during the workload (default 1; needs --kafka)")
  Integer brokerKills;

  @Option(
      names = "--failover",
      paramLabel = "N",
      description =
          "runs PostgreSQL as a primary and a standby, and fails over N times during the workload:"
              + " SIGKILL of the primary, the standby promoted, the old primary rebuilt as the new"
              + " standby (default 0: one PostgreSQL)")
  Integer failovers;

  @Option(
      names = "--replication",
      paramLabel = "MODE",
      description =
          "with --failover: sync (default: a commit waits for the standby, none acknowledged may"
              + " be lost), async (the run reports what was lost), async-unflushed (the checker's"
              + " self-test: asynchronous, synchronous_commit=off; the run must FAIL)")
  String replication;

  @Option(
      names = "--network-faults",
      paramLabel = "P",
      description =
          "each shop reaches PostgreSQL, the provider (and the broker) through proxies of its own,"
              + " and P%% of"
              + " the workload's 5-second slots hold a seeded network fault on one of those routes"
              + " (refused or reset connections, a blackhole, latency) for 1 to 4 s (default 0:"
              + " direct routes)")
  Integer networkFaults;

  @Option(
      names = "--jdbc-url",
      paramLabel = "URL",
      description = {
        "An external PostgreSQL (an empty database) instead of the one chaos starts:",
        "jdbc:postgresql://HOST:PORT/DB"
      })
  String jdbcUrl;

  @Option(
      names = "--db-user",
      paramLabel = "U",
      description = "its schema owner (migrations and checks)")
  String dbUser;

  @Option(
      names = "--db-password-file",
      paramLabel = "F",
      description = "the owner's password, first line of F")
  Path dbPasswordFile;

  @Option(
      names = "--db-app-user",
      paramLabel = "U",
      description = "the role the shops serve as (default: the owner)")
  String dbAppUser;

  @Option(names = "--db-app-password-file", paramLabel = "F", description = "its password")
  Path dbAppPasswordFile;

  @Option(
      names = "--attach",
      description = {
        "Attach to running processes instead of starting them (no kills; needs --jdbc-url):",
        "drive what runs at the URLs below"
      })
  boolean attach;

  @Option(
      names = "--shop-url",
      paramLabel = "URL",
      description = "a shop's base URL; repeat for each instance")
  List<String> shopUrls = new ArrayList<>();

  @Option(names = "--simulator-url", paramLabel = "URL", description = "psp-simulator's base URL")
  String simulatorUrl;

  @Option(
      names = "--admin-token-file",
      paramLabel = "F",
      description = "the shops' admin token, first line of F")
  Path adminTokenFile;

  /** The options these flags give, or a usage error when they do not go together. */
  @Override
  public ChaosOptions options() throws UsageException {
    Optional<ExternalDatabase> database = database();
    if (brokerKills != null && !kafka) {
      throw new UsageException("--broker-kills needs --kafka");
    }
    if (kafka && attach) {
      throw new UsageException(
          "--kafka starts its own broker and the shops on it: it does not go with --attach");
    }
    Optional<Attach> attached = attached(database);
    int shopCount = attached.map(a -> a.shopUrls().size()).orElse(shops == null ? 1 : shops);
    return new ChaosOptions(
        shopJar == null ? Path.of("shop/target/shop.jar") : shopJar,
        simulatorJar == null ? Path.of("psp-simulator/target/psp-simulator.jar") : simulatorJar,
        duration("--duration", duration),
        attached.isPresent() ? 0 : count("--kills", kills, 3),
        attached.isPresent() ? 0 : count("--simulator-kills", simulatorKills, 1),
        within("--shops", shopCount, 1, 4),
        within("--provider-faults", providerFaults, 0, 100),
        within("--clients", clients, 1, 1_000),
        within("--accounts", accounts, 1, 100),
        seed == null ? ThreadLocalRandom.current().nextLong(1, 1_000_000_000L) : seed,
        duration("--quiet-timeout", quietTimeout),
        out == null ? Cli.utcFolder("chaos-results", "yyyy-MM-dd'T'HH-mm-ss'Z'") : out,
        Optional.ofNullable(brokenMode(brokenMode)),
        kafka,
        kafka ? count("--broker-kills", brokerKills, 1) : 0,
        replication(database.isPresent() || attached.isPresent()),
        networkFaults(attached.isPresent()),
        database,
        attached,
        flags());
  }

  private Replication replication(boolean external) throws UsageException {
    if (failovers == null || failovers == 0) {
      if (replication != null) {
        throw new UsageException("--replication needs --failover N (N > 0)");
      }
      return Replication.NONE;
    }
    if (external) {
      throw new UsageException(
          "--failover starts its own primary and standby: it does not go with --jdbc-url or"
              + " --attach");
    }
    ReplicatedPostgres.Mode mode =
        ReplicatedPostgres.Mode.ofFlag(replication == null ? "sync" : replication);
    if (mode == null) {
      throw new UsageException("--replication: sync, async or async-unflushed, not " + replication);
    }
    return new Replication(within("--failover", failovers, 1, 100), mode);
  }

  private int networkFaults(boolean attached) throws UsageException {
    if (networkFaults == null) {
      return 0;
    }
    if (attached) {
      throw new UsageException(
          "--network-faults puts proxies between the shops chaos starts and their dependencies:"
              + " it does not go with --attach");
    }
    return within("--network-faults", networkFaults, 0, 100);
  }

  private static int count(String flag, Integer value, int otherwise) throws UsageException {
    return value == null ? otherwise : within(flag, value, 0, 10_000);
  }

  private Optional<Attach> attached(Optional<ExternalDatabase> database) throws UsageException {
    String token = adminTokenFile == null ? null : secret("--admin-token-file", adminTokenFile);
    if (!attach) {
      if (!shopUrls.isEmpty() || simulatorUrl != null || token != null) {
        throw new UsageException(
            "--shop-url, --simulator-url and --admin-token-file need --attach");
      }
      return Optional.empty();
    }
    if (database.isEmpty()) {
      throw new UsageException("--attach needs the shops' database: --jdbc-url and --db-user");
    }
    if (shopUrls.isEmpty() || simulatorUrl == null || token == null) {
      throw new UsageException(
          "--attach needs --shop-url (one per shop), --simulator-url and --admin-token-file");
    }
    if ((kills != null && kills > 0) || (simulatorKills != null && simulatorKills > 0)) {
      throw new UsageException(
          "--attach cannot kill or restart processes it did not start: use --kills 0 and"
              + " --simulator-kills 0, and kill -9 them yourself if you want kills");
    }
    if (shops != null || brokenMode != null || shopJar != null || simulatorJar != null) {
      throw new UsageException(
          "--attach drives running processes: --shops, --broken-mode and the jars do not apply");
    }
    List<String> urls = new ArrayList<>();
    for (String url : shopUrls) {
      urls.add(url("--shop-url", url));
    }
    return Optional.of(new Attach(List.copyOf(urls), url("--simulator-url", simulatorUrl), token));
  }

  private Optional<ExternalDatabase> database() throws UsageException {
    String password = dbPasswordFile == null ? null : secret("--db-password-file", dbPasswordFile);
    String appPassword =
        dbAppPasswordFile == null ? null : secret("--db-app-password-file", dbAppPasswordFile);
    if (jdbcUrl == null) {
      if (dbUser != null || password != null || dbAppUser != null || appPassword != null) {
        throw new UsageException("--db-user and the password files need --jdbc-url");
      }
      return Optional.empty();
    }
    Cli.jdbcUrl(jdbcUrl);
    if (dbUser == null || password == null) {
      throw new UsageException("--jdbc-url needs --db-user and --db-password-file");
    }
    if ((dbAppUser == null) != (appPassword == null)) {
      throw new UsageException("--db-app-user and --db-app-password-file go together");
    }
    return Optional.of(
        new ExternalDatabase(
            jdbcUrl,
            dbUser,
            password,
            dbAppUser == null ? dbUser : dbAppUser,
            appPassword == null ? password : appPassword));
  }

  private static String secret(String flag, Path file) throws UsageException {
    return SecretFile.read(flag, file);
  }

  private static String brokenMode(String value) throws UsageException {
    if (value != null && !value.matches("[a-z][a-z-]{0,63}")) {
      throw new UsageException("--broken-mode: not a mode name: " + value);
    }
    return value;
  }

  private static String url(String name, String value) throws UsageException {
    if (!value.matches("https?://[^\\s/?#]+/?")) {
      throw new UsageException(name + ": not a base URL like http://127.0.0.1:8080: " + value);
    }
    return value.endsWith("/") ? value.substring(0, value.length() - 1) : value;
  }

  private static Duration duration(String name, String value) throws UsageException {
    return Cli.duration(name, value, false);
  }

  @Override
  protected int run(ChaosOptions options) throws Exception {
    return new ChaosCommand(options, System.out).run();
  }
}
