package dev.once.verify.chaos;

import dev.once.verify.chaos.Observations.AccountState;
import dev.once.verify.chaos.Observations.JournalRow;
import dev.once.verify.check.Invariants;
import dev.once.verify.json.Json;
import dev.once.verify.report.Verdict;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Reads the end state of a quiet run, for the checks: each account's balance and journal through
 * the API, the payments and refunds from the shop's database, each one's effects at the provider,
 * the keys, the orders' side ({@link OrderObserver}), and {@code check}'s database invariants.
 */
final class Observer {
  private Observer() {}

  private static List<String> ids(ChaosDatabase db, String table) throws SQLException {
    return db.rows("SELECT id FROM " + table + " ORDER BY id", rs -> rs.getString(1));
  }

  static Observations observe(Workload w, Http shop, Http psp, ChaosDatabase db, long[] quiet)
      throws IOException, InterruptedException, SQLException {
    List<String> payments = ids(db, "payment");
    List<String> refunds = ids(db, "refund");
    Map<String, Long> effects = new HashMap<>();
    List<String> references = new ArrayList<>(payments);
    references.addAll(refunds);
    for (String reference : references) {
      Http.Answer r =
          psp.get(
              "/v1/stats/references/" + URLEncoder.encode(reference, StandardCharsets.UTF_8), null);
      effects.put(reference, Long.parseLong(Http.number(r.body(), "effects")));
    }
    long[] keys =
        db.row(
            "SELECT count(*), count(*) FILTER (WHERE state = 'in_progress')"
                + " FROM once.idempotency_key");
    Http.Answer stats = psp.get("/v1/stats", null);
    long total = Long.parseLong(Http.number(stats.body(), "effects"));
    return new Observations(
        List.copyOf(w.intents),
        List.copyOf(w.replays),
        List.copyOf(w.reuses),
        accounts(w, shop),
        payments,
        refunds,
        Math.max(0, quiet[1]),
        Math.max(0, quiet[0]),
        Math.max(0, quiet[2]),
        effects,
        total,
        keys[0],
        keys[1],
        OrderObserver.observe(w, shop, db));
  }

  /** Each account's balance and journal, through the API as its client sees them. */
  private static List<AccountState> accounts(Workload w, Http shop)
      throws IOException, InterruptedException {
    List<AccountState> accounts = new ArrayList<>();
    for (String account : w.accounts) {
      String apiKey = w.owners.get(account);
      Http.Answer a = shop.get("/v1/accounts/" + account, apiKey);
      if (a.status() != 200) {
        throw new IOException("GET account " + account + ": " + a.status() + " " + a.body());
      }
      String balance = Http.field(a.body(), "balance");
      List<JournalRow> journal = new ArrayList<>();
      String after = null;
      do {
        Http.Answer page =
            shop.get(
                "/v1/accounts/"
                    + account
                    + "/operations?limit=100"
                    + (after == null ? "" : "&after=" + after),
                apiKey);
        if (page.status() != 200) {
          throw new IOException("GET operations of " + account + ": " + page.status());
        }
        JsonNode body = Json.tree(page.body());
        for (JsonNode item : body.path("items")) {
          journal.add(
              new JournalRow(
                  Json.string(item, "id"), Json.string(item, "kind"), Json.string(item, "amount")));
        }
        after = Json.string(body, "next");
      } while (after != null);
      accounts.add(new AccountState(account, balance, journal));
    }
    return accounts;
  }

  /**
   * The {@code check} subcommand's invariants over the shop's database, in the same snapshot-read
   * way, appended to the table as {@code db: <id>} rows.
   */
  static List<Verdict> databaseInvariants(ChaosDatabase db) throws SQLException {
    List<Verdict> verdicts = new ArrayList<>();
    try (Connection c = db.connect()) {
      for (Verdict v : new Invariants(false).evaluate(c)) {
        verdicts.add(
            new Verdict(
                "db: " + v.id(),
                v.description(),
                v.status(),
                v.checked(),
                v.violations(),
                v.examples()));
      }
    }
    return verdicts;
  }

  static String providerStats(Http psp) {
    try {
      return psp.get("/v1/stats", null).body();
    } catch (IOException | InterruptedException e) {
      return "unavailable: " + e;
    }
  }
}
