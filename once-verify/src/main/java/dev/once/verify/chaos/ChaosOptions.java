package dev.once.verify.chaos;

import dev.once.verify.cli.Cli;
import dev.once.verify.cli.UsageException;
import dev.once.verify.failover.ReplicatedPostgres;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

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
 * @param replication a standby for the database and failovers onto it, or {@link Replication#NONE}
 * @param networkFaults percent of the workload's 5-second slots that hold a network fault on one
 *     shop's route to PostgreSQL or the provider (0: every route direct)
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
    Replication replication,
    int networkFaults,
    Optional<ExternalDatabase> database,
    Optional<Attach> attach,
    List<String> flags) {

  /**
   * The database as a primary and a standby ({@link ReplicatedPostgres}), and how often the primary
   * is killed and the standby promoted.
   *
   * @param failovers SIGKILLs of the primary spread over the duration, each a failover
   * @param mode how the standby follows the primary; null without failovers
   */
  public record Replication(int failovers, ReplicatedPostgres.Mode mode) {
    /** One PostgreSQL, no standby. */
    public static final Replication NONE = new Replication(0, null);

    /** Whether the run has a standby. */
    public boolean on() {
      return failovers > 0;
    }
  }

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

  /** {@code chaos --help}: the flags, their defaults and the exit codes. */
  public static String usage() {
    return Cli.usage(new ChaosCli());
  }

  /** Parses the flags after {@code chaos} ({@link ChaosCli}). */
  public static ChaosOptions parse(String[] args) throws UsageException {
    return Cli.parse(new ChaosCli(), args).options();
  }

  /** Whether chaos starts the processes (and may kill them). */
  public boolean startsProcesses() {
    return attach.isEmpty();
  }
}
