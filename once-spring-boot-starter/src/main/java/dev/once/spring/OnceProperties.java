package dev.once.spring;

import dev.once.idempotency.IdempotencyEngine;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Configuration of Once under the {@code once} prefix. Every value is checked by {@link
 * #validate()} when the application starts; a bad value stops the start with a message naming the
 * property.
 */
@ConfigurationProperties(prefix = "once")
public class OnceProperties {

  private final Idempotency idempotency = new Idempotency();
  private final Schema schema = new Schema();

  public Idempotency getIdempotency() {
    return idempotency;
  }

  public Schema getSchema() {
    return schema;
  }

  /** Checks every value; throws {@link IllegalArgumentException} naming the first bad property. */
  public void validate() {
    Idempotency i = idempotency;
    requireAtLeast("once.idempotency.retention", i.retention, Duration.ofSeconds(1));
    requireAtLeast("once.idempotency.retry-after", i.retryAfter, Duration.ofSeconds(1));
    requireAtLeast("once.idempotency.lease", i.lease, Duration.ofSeconds(1));
    if (i.lease.compareTo(IdempotencyEngine.MAX_LEASE) > 0) {
      throw bad("once.idempotency.lease", i.lease, "must be at most 24 days (PostgreSQL's limit)");
    }
    requireAtLeast("once.idempotency.purge.interval", i.purge.interval, Duration.ofSeconds(1));
    if (i.purge.batchSize < 1 || i.purge.batchSize > 100_000) {
      throw bad("once.idempotency.purge.batch-size", i.purge.batchSize, "must be 1 to 100000");
    }
    Http h = i.http;
    if (h.methods == null || h.methods.isEmpty()) {
      throw bad("once.idempotency.http.methods", h.methods, "must name at least one method");
    }
    if (h.paths == null || h.paths.isEmpty()) {
      throw bad("once.idempotency.http.paths", h.paths, "must name at least one path pattern");
    }
    if (h.maxBodySize == null
        || h.maxBodySize.toBytes() < 1
        || h.maxBodySize.toBytes() > Integer.MAX_VALUE - 8) {
      throw bad("once.idempotency.http.max-body-size", h.maxBodySize, "must be 1B to 2GB");
    }
    if (h.maxJsonDepth < 1 || h.maxJsonDepth > 10_000) {
      throw bad("once.idempotency.http.max-json-depth", h.maxJsonDepth, "must be 1 to 10000");
    }
    if (h.problemTypeBase == null
        || h.problemTypeBase.isBlank()
        || !prefixesUris(h.problemTypeBase)) {
      throw bad(
          "once.idempotency.http.problem-type-base",
          h.problemTypeBase,
          "must be the start of a URI, such as https://example.com/problems/");
    }
  }

  /** Whether a problem's {@code type}, this base followed by a slug, is a valid URI reference. */
  private static boolean prefixesUris(String base) {
    try {
      new URI(base + "slug");
      return true;
    } catch (URISyntaxException e) {
      return false;
    }
  }

  private static void requireAtLeast(String name, Duration value, Duration min) {
    if (value == null || value.compareTo(min) < 0) {
      throw bad(name, value, "must be at least " + min.toSeconds() + "s");
    }
  }

  private static IllegalArgumentException bad(String name, Object value, String rule) {
    return new IllegalArgumentException(
        "Invalid configuration: " + name + " " + rule + ", but was '" + value + "'.");
  }

  /** The HTTP idempotency contract. */
  public static class Idempotency {
    /** How long a completed key and its stored answer are kept before they may be purged. */
    private Duration retention = Duration.ofHours(24);

    /** The Retry-After sent with a 409 to a duplicate that arrives while the key is in use. */
    private Duration retryAfter = Duration.ofSeconds(1);

    /**
     * Lease of a claimed key: longest time a request's transaction may last after its claim before
     * the database ends it, rolls it back and frees the key, so a hung or endless handler cannot
     * hold its key for longer. PostgreSQL 17 and later cap the whole transaction
     * (transaction_timeout); older servers only cap each idle pause and each single statement.
     * Stricter timeouts already configured for the session, role or database are kept. 1s to 24d.
     */
    private Duration lease = Duration.ofSeconds(60);

    private final Http http = new Http();
    private final Purge purge = new Purge();

    public Duration getRetention() {
      return retention;
    }

    public void setRetention(Duration retention) {
      this.retention = retention;
    }

    public Duration getRetryAfter() {
      return retryAfter;
    }

    public void setRetryAfter(Duration retryAfter) {
      this.retryAfter = retryAfter;
    }

    public Duration getLease() {
      return lease;
    }

    public void setLease(Duration lease) {
      this.lease = lease;
    }

    public Http getHttp() {
      return http;
    }

    public Purge getPurge() {
      return purge;
    }
  }

  /** Which requests the servlet filter treats as idempotent, and its limits. */
  public static class Http {
    /** Whether the Idempotency-Key servlet filter is registered. */
    private boolean enabled = true;

    /** HTTP methods that require an Idempotency-Key. */
    private List<String> methods = new ArrayList<>(List.of("POST"));

    /** Path patterns (Spring PathPattern syntax, e.g. /v1/**) that require an Idempotency-Key. */
    private List<String> paths = new ArrayList<>(List.of("/**"));

    /** Largest accepted request body on an idempotent endpoint; larger ones get 413. */
    private DataSize maxBodySize = DataSize.ofMegabytes(1);

    /** Deepest accepted JSON nesting on an idempotent endpoint; deeper bodies get 400. */
    private int maxJsonDepth = 64;

    /** Prefix of the "type" URI of problem answers; the problem's slug is appended. */
    private String problemTypeBase = "https://once.dev/problems/";

    /** Order of the servlet filter; it must run after the application's authentication. */
    private int filterOrder = 0;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public List<String> getMethods() {
      return methods;
    }

    public void setMethods(List<String> methods) {
      this.methods = methods;
    }

    public List<String> getPaths() {
      return paths;
    }

    public void setPaths(List<String> paths) {
      this.paths = paths;
    }

    public DataSize getMaxBodySize() {
      return maxBodySize;
    }

    public void setMaxBodySize(DataSize maxBodySize) {
      this.maxBodySize = maxBodySize;
    }

    public int getMaxJsonDepth() {
      return maxJsonDepth;
    }

    public void setMaxJsonDepth(int maxJsonDepth) {
      this.maxJsonDepth = maxJsonDepth;
    }

    public String getProblemTypeBase() {
      return problemTypeBase;
    }

    public void setProblemTypeBase(String problemTypeBase) {
      this.problemTypeBase = problemTypeBase;
    }

    public int getFilterOrder() {
      return filterOrder;
    }

    public void setFilterOrder(int filterOrder) {
      this.filterOrder = filterOrder;
    }
  }

  /** The background purge of expired keys. */
  public static class Purge {
    /** Whether expired keys are purged in the background. */
    private boolean enabled = true;

    /** Time between two purge runs. */
    private Duration interval = Duration.ofMinutes(1);

    /** Keys deleted per statement (and per transaction) by the purge. */
    private int batchSize = 500;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public Duration getInterval() {
      return interval;
    }

    public void setInterval(Duration interval) {
      this.interval = interval;
    }

    public int getBatchSize() {
      return batchSize;
    }

    public void setBatchSize(int batchSize) {
      this.batchSize = batchSize;
    }
  }

  /** Creation of Once's own tables. */
  public static class Schema {
    /**
     * Whether Once migrates its tables (schema "once", history table once_schema_history) with
     * Flyway at start. Turn off if your team applies the scripts in its own migrations.
     */
    private boolean migrate = true;

    public boolean isMigrate() {
      return migrate;
    }

    public void setMigrate(boolean migrate) {
      this.migrate = migrate;
    }
  }
}
