package dev.once.verify.bench;

import dev.once.verify.cli.UsageException;

/** The scenarios of {@code bench}, in the order they run. */
public enum Scenario {
  SQL_ONCE("sql-once", "SQL floor, Once: auth; claim, charge, outbox, complete, commit"),
  SQL_PLAIN("sql-plain", "SQL floor, plain: auth; charge, outbox, commit"),
  HTTP_ONCE("http-once", "HTTP new payments, Once on"),
  REPLAY("replay", "HTTP replays of completed keys"),
  GET("get", "HTTP authenticated GET /v1/accounts/{id}"),
  HTTP_OFF("http-off", "HTTP new payments, Once off"),
  ORDERS("orders", "HTTP orders placed, relay on, 10 hot SKUs"),
  UNTRACED("http-untraced", "HTTP new payments, no tracer (only with --scenarios)", true),
  TRACED(
      "http-traced",
      "HTTP new payments, tracer, sampling 1.0, no exporter (only with --scenarios)",
      true),
  FAIRNESS(
      "fairness",
      "a neighbour's payments/s alone and beside one client's flood, in-flight cap per client on"
          + " and off (only with --scenarios; fairness.md)",
      true);

  private final String id;
  private final String title;
  private final boolean onRequest;

  Scenario(String id, String title) {
    this(id, title, false);
  }

  Scenario(String id, String title, boolean onRequest) {
    this.id = id;
    this.title = title;
    this.onRequest = onRequest;
  }

  /** Whether it runs only when {@code --scenarios} names it, never by default. */
  boolean onRequest() {
    return onRequest;
  }

  public String id() {
    return id;
  }

  public String title() {
    return title;
  }

  static Scenario byId(String id) throws UsageException {
    for (Scenario s : values()) {
      if (s.id.equals(id)) {
        return s;
      }
    }
    throw new UsageException("unknown scenario: " + id);
  }
}
