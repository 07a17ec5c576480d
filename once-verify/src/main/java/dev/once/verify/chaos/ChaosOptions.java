package dev.once.verify.chaos;

import dev.once.verify.SecretFile;
import dev.once.verify.UsageException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Flags of {@code chaos}.
 *
 * @param shopJar the shop's runnable jar
 * @param simulatorJar psp-simulator's runnable jar
 * @param duration how long the workload runs
 * @param kills SIGKILLs of a shop spread over the duration
 * @param simulatorKills SIGKILLs of psp-simulator spread over the duration
 * @param shops how many shop processes share the database (clients spread over all of them)
 * @param providerFaults percent of provider calls that fault (split evenly into 5xx, time-outs and
 *     lost answers)
 * @param clients concurrent virtual clients
 * @param accounts accounts per client
 * @param seed the schedule's seed
 * @param quietTimeout how long to wait, after the workload, for the outbox to drain
 * @param out report folder
 * @param brokenMode a shop setting {@code shop.testing.broken-mode} that switches a guarantee off
 *     on purpose, for the checker's self-test; empty for none
 * @param kafka events through a Kafka broker that chaos starts (and kills), checked on the topics
 * @param brokerKills SIGKILLs of the Kafka broker spread over the duration (with {@code kafka})
 * @param database an external PostgreSQL instead of the one chaos starts in its own JVM
 * @param attach running processes to drive instead of starting them
 * @param flags the command line as given
 */
public record ChaosOptions(
    Path shopJar,
    Path simulatorJar,
    Duration duration,
    int kills,
    int simulatorKills,
    int shops,
    int providerFaults,
    int clients,
    int accounts,
    long seed,
    Duration quietTimeout,
    Path out,
    Optional<String> brokenMode,
    boolean kafka,
    int brokerKills,
    Optional<ExternalDatabase> database,
    Optional<Attach> attach,
    List<String> flags) {

  /**
   * A PostgreSQL that chaos does not start: an empty database the shops migrate.
   *
   * @param jdbcUrl {@code jdbc:postgresql://HOST:PORT/DB}
   * @param ownerUser the schema owner: the shops migrate as it, and the checks read as it
   * @param ownerPassword its password
   * @param appUser the role the shops serve requests as (the owner if not given)
   * @param appPassword its password
   */
  public record ExternalDatabase(
      String jdbcUrl, String ownerUser, String ownerPassword, String appUser, String appPassword) {
    @Override
    public String toString() {
      return jdbcUrl + " (owner " + ownerUser + ", application " + appUser + ")";
    }
  }

  /**
   * Processes that already run: chaos drives them, faults the provider, and checks; it cannot kill
   * or restart them.
   *
   * @param shopUrls one base URL per shop instance, e.g. {@code http://127.0.0.1:8080}
   * @param simulatorUrl psp-simulator's base URL
   * @param adminToken the shops' admin token
   */
  public record Attach(List<String> shopUrls, String simulatorUrl, String adminToken) {
    @Override
    public String toString() {
      return "shops " + shopUrls + ", psp-simulator " + simulatorUrl;
    }
  }

  public static String usage() {
    return "chaos flags:\n"
        + "  --shop-jar PATH         the shop's jar (default shop/target/shop.jar)\n"
        + "  --simulator-jar PATH    psp-simulator's jar (default"
        + " psp-simulator/target/psp-simulator.jar)\n"
        + "  --duration D            workload time, e.g. 90s, 2m (default 2m)\n"
        + "  --kills K               SIGKILLs of a shop during the workload (default 3)\n"
        + "  --simulator-kills K     SIGKILLs of psp-simulator during the workload (default 1)\n"
        + "  --shops N               shop processes on the one database, 1 to 4 (default 1)\n"
        + "  --provider-faults P     percent of provider calls that fault: 5xx, time-outs, lost"
        + " answers (default 0)\n"
        + "  --clients N             concurrent virtual clients (default 8)\n"
        + "  --accounts A            accounts per client (default 2)\n"
        + "  --seed S                the schedule's seed (default random, printed)\n"
        + "  --quiet-timeout D       wait at most this for the outbox to drain (default 3m)\n"
        + "  --out DIR               report folder (default chaos-results/<UTC time>)\n"
        + "  --broken-mode MODE      start the shops with shop.testing.broken-mode=MODE, a guarantee\n"
        + "                          switched off on purpose: the run must FAIL (the self-test)\n"
        + "  --kafka                 events through Kafka: starts a broker (once-verify kafka) on a"
        + " free\n"
        + "                          port in the report folder, the shops with SHOP_KAFKA_BOOTSTRAP,\n"
        + "                          kills -9 the broker too, starts a further shop for a while (a\n"
        + "                          consumer-group rebalance), then reads every event topic as an\n"
        + "                          outside consumer and checks it against the database\n"
        + "  --broker-kills K        SIGKILLs of the Kafka broker during the workload (default 1;"
        + " needs --kafka)\n"
        + "                          self-test: --kafka --broken-mode commit-offset-before-transaction\n"
        + "  An external PostgreSQL (an empty database) instead of the one chaos starts:\n"
        + "  --jdbc-url URL          jdbc:postgresql://HOST:PORT/DB\n"
        + "  --db-user U             its schema owner (migrations and checks)\n"
        + "  --db-password-file F    the owner's password, first line of F\n"
        + "  --db-app-user U         the role the shops serve as (default: the owner)\n"
        + "  --db-app-password-file F  its password\n"
        + "  Attach to running processes instead of starting them (no kills; needs --jdbc-url):\n"
        + "  --attach                drive what runs at the URLs below\n"
        + "  --shop-url URL          a shop's base URL; repeat for each instance\n"
        + "  --simulator-url URL     psp-simulator's base URL\n"
        + "  --admin-token-file F    the shops' admin token, first line of F\n"
        + "  Exit: 0 every check passes, 1 a violation or an incomplete run, 2 wrong flags.\n";
  }

  public static ChaosOptions parse(String[] args) throws UsageException {
    Path shopJar = Path.of("shop/target/shop.jar");
    Path simulatorJar = Path.of("psp-simulator/target/psp-simulator.jar");
    Duration duration = Duration.ofMinutes(2);
    Integer kills = null;
    Integer simulatorKills = null;
    Integer shops = null;
    int faults = 0;
    int clients = 8;
    int accounts = 2;
    long seed = ThreadLocalRandom.current().nextLong(1, 1_000_000_000L);
    Duration quiet = Duration.ofMinutes(3);
    Path out = null;
    String brokenMode = null;
    String jdbcUrl = null;
    String dbUser = null;
    String dbPassword = null;
    String appUser = null;
    String appPassword = null;
    boolean attach = false;
    boolean kafka = false;
    Integer brokerKills = null;
    List<String> shopUrls = new ArrayList<>();
    String simulatorUrl = null;
    String adminToken = null;
    boolean jarsGiven = false;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("--attach")) {
        attach = true;
        continue;
      }
      if (arg.equals("--kafka")) {
        kafka = true;
        continue;
      }
      String name = arg;
      String value;
      int eq = arg.indexOf('=');
      if (arg.startsWith("--") && eq > 0) {
        name = arg.substring(0, eq);
        value = arg.substring(eq + 1);
      } else {
        if (i + 1 >= args.length) {
          throw new UsageException(arg + " needs a value");
        }
        value = args[++i];
      }
      switch (name) {
        case "--shop-jar" -> {
          shopJar = Path.of(value);
          jarsGiven = true;
        }
        case "--simulator-jar" -> {
          simulatorJar = Path.of(value);
          jarsGiven = true;
        }
        case "--duration" -> duration = duration(name, value);
        case "--kills" -> kills = integer(name, value, 0, 10_000);
        case "--simulator-kills" -> simulatorKills = integer(name, value, 0, 10_000);
        case "--broker-kills" -> brokerKills = integer(name, value, 0, 10_000);
        case "--shops" -> shops = integer(name, value, 1, 4);
        case "--provider-faults" -> faults = integer(name, value, 0, 100);
        case "--clients" -> clients = integer(name, value, 1, 1_000);
        case "--accounts" -> accounts = integer(name, value, 1, 100);
        case "--seed" -> {
          try {
            seed = Long.parseLong(value);
          } catch (NumberFormatException e) {
            throw new UsageException("--seed: not a whole number: " + value);
          }
        }
        case "--quiet-timeout" -> quiet = duration(name, value);
        case "--out" -> out = Path.of(value);
        case "--broken-mode" -> brokenMode = brokenMode(value);
        case "--jdbc-url" -> jdbcUrl = value;
        case "--db-user" -> dbUser = value;
        case "--db-password-file" -> dbPassword = SecretFile.read(name, Path.of(value));
        case "--db-app-user" -> appUser = value;
        case "--db-app-password-file" -> appPassword = SecretFile.read(name, Path.of(value));
        case "--shop-url" -> shopUrls.add(url(name, value));
        case "--simulator-url" -> simulatorUrl = url(name, value);
        case "--admin-token-file" -> adminToken = SecretFile.read(name, Path.of(value));
        default -> throw new UsageException("unknown chaos flag: " + name);
      }
    }
    Optional<ExternalDatabase> database =
        database(jdbcUrl, dbUser, dbPassword, appUser, appPassword);
    if (brokerKills != null && !kafka) {
      throw new UsageException("--broker-kills needs --kafka");
    }
    if (kafka && attach) {
      throw new UsageException(
          "--kafka starts its own broker and the shops on it: it does not go with --attach");
    }
    Optional<Attach> attached = Optional.empty();
    if (attach) {
      if (database.isEmpty()) {
        throw new UsageException("--attach needs the shops' database: --jdbc-url and --db-user");
      }
      if (shopUrls.isEmpty() || simulatorUrl == null || adminToken == null) {
        throw new UsageException(
            "--attach needs --shop-url (one per shop), --simulator-url and --admin-token-file");
      }
      if ((kills != null && kills > 0) || (simulatorKills != null && simulatorKills > 0)) {
        throw new UsageException(
            "--attach cannot kill or restart processes it did not start: use --kills 0 and"
                + " --simulator-kills 0, and kill -9 them yourself if you want kills");
      }
      if (shops != null || brokenMode != null || jarsGiven) {
        throw new UsageException(
            "--attach drives running processes: --shops, --broken-mode and the jars do not apply");
      }
      attached = Optional.of(new Attach(List.copyOf(shopUrls), simulatorUrl, adminToken));
      kills = 0;
      simulatorKills = 0;
      shops = shopUrls.size();
    } else if (!shopUrls.isEmpty() || simulatorUrl != null || adminToken != null) {
      throw new UsageException("--shop-url, --simulator-url and --admin-token-file need --attach");
    }
    if (out == null) {
      out =
          Path.of(
              "chaos-results",
              ZonedDateTime.now(ZoneOffset.UTC)
                  .format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss'Z'")));
    }
    return new ChaosOptions(
        shopJar,
        simulatorJar,
        duration,
        kills == null ? 3 : kills,
        simulatorKills == null ? 1 : simulatorKills,
        shops == null ? 1 : shops,
        faults,
        clients,
        accounts,
        seed,
        quiet,
        out,
        Optional.ofNullable(brokenMode),
        kafka,
        kafka ? (brokerKills == null ? 1 : brokerKills) : 0,
        database,
        attached,
        List.of(args));
  }

  /** Whether chaos starts the processes (and may kill them). */
  public boolean startsProcesses() {
    return attach.isEmpty();
  }

  private static Optional<ExternalDatabase> database(
      String url, String user, String password, String appUser, String appPassword)
      throws UsageException {
    if (url == null) {
      if (user != null || password != null || appUser != null || appPassword != null) {
        throw new UsageException("--db-user and the password files need --jdbc-url");
      }
      return Optional.empty();
    }
    if (!url.startsWith("jdbc:postgresql:")) {
      throw new UsageException("--jdbc-url must start with jdbc:postgresql: " + url);
    }
    if (user == null || password == null) {
      throw new UsageException("--jdbc-url needs --db-user and --db-password-file");
    }
    if ((appUser == null) != (appPassword == null)) {
      throw new UsageException("--db-app-user and --db-app-password-file go together");
    }
    return Optional.of(
        new ExternalDatabase(
            url,
            user,
            password,
            appUser == null ? user : appUser,
            appPassword == null ? password : appPassword));
  }

  private static String brokenMode(String value) throws UsageException {
    if (!value.matches("[a-z][a-z-]{0,63}")) {
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

  static Duration duration(String name, String value) throws UsageException {
    try {
      Duration d;
      if (value.endsWith("ms")) {
        d = Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)));
      } else if (value.endsWith("s")) {
        d = Duration.ofSeconds(Long.parseLong(value.substring(0, value.length() - 1)));
      } else if (value.endsWith("m")) {
        d = Duration.ofMinutes(Long.parseLong(value.substring(0, value.length() - 1)));
      } else if (value.endsWith("h")) {
        d = Duration.ofHours(Long.parseLong(value.substring(0, value.length() - 1)));
      } else {
        d = Duration.ofSeconds(Long.parseLong(value));
      }
      if (d.isNegative() || d.isZero()) {
        throw new UsageException(name + ": must be positive: " + value);
      }
      return d;
    } catch (NumberFormatException e) {
      throw new UsageException(name + ": not a duration (e.g. 90s, 2m): " + value);
    }
  }

  private static int integer(String name, String value, int min, int max) throws UsageException {
    try {
      int n = Integer.parseInt(value);
      if (n < min || n > max) {
        throw new UsageException(name + ": must be " + min + " to " + max + ": " + value);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new UsageException(name + ": not a whole number: " + value);
    }
  }
}
