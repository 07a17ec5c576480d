package dev.once.verify.chaos;

import dev.once.verify.check.CheckReport;
import dev.once.verify.report.JsonWriter;
import dev.once.verify.report.MarkdownTable;
import dev.once.verify.report.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The verdict table, report.json and summary.md of a chaos run. */
final class ChaosReport {
  private ChaosReport() {}

  /** The verdict table as printed, the same as {@code check}'s: one row per check. */
  static String table(List<Verdict> verdicts) {
    return CheckReport.table(verdicts);
  }

  /** The report's facts: the settings, what the run did, and what it saw. */
  static Map<String, Object> facts(ChaosRun r) {
    ChaosOptions options = r.options;
    Map<String, Object> facts = new LinkedHashMap<>();
    facts.put("seed", options.seed());
    facts.put("duration", options.duration().toString());
    facts.put("shops", options.shops());
    facts.put(
        "database",
        options.database().map(d -> "external " + d.jdbcUrl()).orElse("PostgreSQL in chaos"));
    facts.put("attached", options.attach().map(Object::toString).orElse("no"));
    facts.put("broken mode", options.brokenMode().orElse("none"));
    facts.put("kills planned", r.plan.size());
    facts.put("shop kills done", r.counters.kills.get());
    facts.put("psp-simulator kills done", r.simulatorKills.get());
    facts.put("kafka", options.kafka());
    if (r.kafka != null) {
      facts.put("broker kills done", r.brokerKills.get());
      facts.putAll(r.kafka.facts());
    }
    if (options.replication().on()) {
      facts.put("replication", options.replication().mode().flag());
      facts.put("failovers done", r.failovers.count());
      facts.putAll(r.failovers.lossFacts());
      facts.put("failovers", r.failovers.facts(r.workloadStart, r.counters));
    }
    if (r.networkFaults != null) {
      facts.putAll(r.networkFaults.facts());
    }
    facts.put("kills", r.plan.stream().map(k -> k.at().toMillis() + " ms " + k.victim()).toList());
    facts.put("provider faults percent", options.providerFaults());
    facts.put("clients", options.clients());
    facts.put("accounts", r.workload.accounts.size());
    facts.putAll(loadFacts(r.counters, r.observations));
    facts.put("provider stats", Observer.providerStats(r.psp));
    facts.put("seconds to quiet", r.quietSeconds);
    facts.put("started", r.started.toString());
    facts.put("seconds", Duration.between(r.started, Instant.now()).toSeconds());
    facts.put("problems", r.problems());
    facts.put("flags", options.flags());
    return facts;
  }

  /** The facts of the load and of the end state, in the report's order. */
  private static Map<String, Object> loadFacts(Counters counters, Observations o) {
    Map<String, Object> facts = new LinkedHashMap<>();
    facts.put("requests", counters.requests.get());
    facts.put("intents (key-reuse probes included)", o.intents().size());
    facts.put("acknowledged", o.intents().stream().filter(i -> !i.timedOut()).count());
    facts.put("timed out", o.intents().stream().filter(i -> i.timedOut()).count());
    facts.put("longest wait for an answer ms", counters.longestWaitMillis.get());
    facts.put("connection errors", counters.connectionErrors.get());
    facts.put("409 in use", counters.inUse.get());
    facts.put("429 limited", counters.limited.get());
    facts.put("5xx", counters.serverErrors.get());
    facts.put("5xx other than 503", counters.serverErrorsNot503.get());
    facts.put("5xx samples", List.copyOf(counters.serverErrorSamples));
    facts.put("replays compared", o.replays().size());
    facts.putAll(orderFacts(o.orders()));
    facts.put("key reuses", o.reuses().size());
    facts.put("journal rows", o.accounts().stream().mapToInt(a -> a.journal().size()).sum());
    facts.put(
        "longest journal", o.accounts().stream().mapToInt(a -> a.journal().size()).max().orElse(0));
    facts.put("payments", o.payments().size());
    facts.put("refunds", o.refunds().size());
    facts.put("provider effects", o.providerTotalEffects());
    return facts;
  }

  /** The orders' counts for the report's facts. */
  static Map<String, Object> orderFacts(Observations.OrderObservations o) {
    Map<String, Object> facts = new LinkedHashMap<>();
    facts.put("products", o.products().size());
    facts.put("order intents (key-reuse probes included)", o.placed().size());
    facts.put("orders acknowledged", o.placed().stream().filter(i -> !i.timedOut()).count());
    facts.put("orders timed out", o.placed().stream().filter(i -> i.timedOut()).count());
    facts.put("orders in the shop", o.orders().size());
    for (String status : List.of("placed", "reserved", "rejected", "paid", "cancelled")) {
      facts.put(
          "orders " + status + (status.equals("rejected") ? " (short of stock)" : ""),
          o.orders().stream().filter(order -> order.status().equals(status)).count());
    }
    for (boolean pay : new boolean[] {true, false}) {
      String name = pay ? "pays" : "cancels";
      int ok = pay ? 201 : 200;
      facts.put(name, o.actions().stream().filter(a -> a.pay() == pay).count());
      facts.put(
          name + " acknowledged " + ok,
          o.actions().stream()
              .filter(a -> a.pay() == pay && Integer.valueOf(ok).equals(a.status()))
              .count());
      facts.put(
          name + " timed out",
          o.actions().stream().filter(a -> a.pay() == pay && a.status() == null).count());
    }
    facts.put("order payments", o.payments().size());
    facts.put("restocks", o.restocks().size());
    facts.put("restocks timed out", o.restocks().stream().filter(r -> r.status() == null).count());
    return facts;
  }

  static void write(Path folder, Map<String, Object> facts, List<Verdict> verdicts)
      throws IOException {
    StringBuilder json = new StringBuilder("{\n  \"run\": ");
    json.append(value(facts)).append(",\n  \"verdicts\": [");
    for (int i = 0; i < verdicts.size(); i++) {
      Verdict v = verdicts.get(i);
      json.append(i == 0 ? "\n    " : ",\n    ")
          .append("{\"name\": ")
          .append(string(v.id()))
          .append(", \"verdict\": ")
          .append(string(v.status().name()))
          .append(", \"checked\": ")
          .append(v.checked())
          .append(", \"violations\": ")
          .append(v.violations())
          .append(", \"examples\": ")
          .append(value(v.examples()))
          .append("}");
    }
    json.append("\n  ],\n  \"pass\": ")
        .append(verdicts.stream().allMatch(Verdict::pass))
        .append("\n}\n");
    Files.writeString(folder.resolve("report.json"), json);

    StringBuilder md = new StringBuilder("# once-verify chaos\n\n");
    for (Map.Entry<String, Object> e : facts.entrySet()) {
      md.append("- ").append(e.getKey()).append(": ").append(e.getValue()).append('\n');
    }
    md.append(
        "\n| invariant | verdict | checked | violations | examples |\n|---|---|---:|---:|---|\n");
    for (Verdict v : verdicts) {
      md.append(
              MarkdownTable.row(
                  v.id(),
                  v.pass() ? v.status().name() : "**FAIL**",
                  v.checked(),
                  v.violations(),
                  String.join(", ", v.examples())))
          .append('\n');
    }
    Files.writeString(folder.resolve("summary.md"), md);
  }

  /**
   * intents.tsv: every intent, its amount (for an order its items, for a restock its units), its
   * first answer's status (empty: timed out) and, for orders, pays and cancels, the order.
   */
  static void writeIntents(Path folder, Observations o) throws IOException {
    StringBuilder b = new StringBuilder("intent\taccount\tkind\tamount\tstatus\torder\n");
    for (Observations.IntentRecord i : o.intents()) {
      b.append(i.id())
          .append('\t')
          .append(i.account())
          .append('\t')
          .append(i.kind().name().toLowerCase(java.util.Locale.ROOT))
          .append('\t')
          .append(Amounts.amount(i.kind(), i.number()))
          .append('\t')
          .append(i.timedOut() ? "" : i.status().toString())
          .append("\t\n");
    }
    for (Observations.OrderIntent i : o.orders().placed()) {
      row(b, i.id(), i.account(), "order", i.items().toString(), i.status(), i.orderId());
    }
    for (Observations.OrderAction a : o.orders().actions()) {
      row(b, a.id(), "", a.pay() ? "pay" : "cancel", "", a.status(), a.orderId());
    }
    for (Observations.RestockRecord r : o.orders().restocks()) {
      row(b, r.id(), "", "restock " + r.sku(), Long.toString(r.quantity()), r.status(), "");
    }
    Files.writeString(folder.resolve("intents.tsv"), b);
  }

  private static void row(
      StringBuilder b,
      String id,
      String account,
      String kind,
      String amount,
      Integer status,
      String order) {
    b.append(String.join("\t", id, account, kind, amount, status == null ? "" : status.toString()))
        .append('\t')
        .append(order == null ? "" : order)
        .append('\n');
  }

  private static String value(Object o) {
    if (o == null) {
      return "null";
    }
    if (o instanceof Number || o instanceof Boolean) {
      return o.toString();
    }
    if (o instanceof Map<?, ?> map) {
      StringBuilder b = new StringBuilder("{");
      Iterator<? extends Map.Entry<?, ?>> it = map.entrySet().iterator();
      while (it.hasNext()) {
        Map.Entry<?, ?> e = it.next();
        b.append(string(String.valueOf(e.getKey()))).append(": ").append(value(e.getValue()));
        if (it.hasNext()) {
          b.append(", ");
        }
      }
      return b.append('}').toString();
    }
    if (o instanceof Collection<?> list) {
      StringBuilder b = new StringBuilder("[");
      Iterator<?> it = list.iterator();
      while (it.hasNext()) {
        b.append(value(it.next()));
        if (it.hasNext()) {
          b.append(", ");
        }
      }
      return b.append(']').toString();
    }
    return string(o.toString());
  }

  static String string(String s) {
    return JsonWriter.string(s);
  }
}
