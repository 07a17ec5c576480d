package dev.once.verify.chaos;

import dev.once.verify.check.CheckReport;
import dev.once.verify.report.JsonWriter;
import dev.once.verify.report.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** The verdict table, report.json and summary.md of a chaos run. */
final class ChaosReport {
  private ChaosReport() {}

  /** The verdict table as printed, the same as {@code check}'s: one row per check. */
  static String table(List<Verdict> verdicts) {
    return CheckReport.table(verdicts);
  }

  /** The orders' counts for the report's facts. */
  static Map<String, Object> orderFacts(Observations.OrderObservations o) {
    Map<String, Object> facts = new java.util.LinkedHashMap<>();
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
      md.append("| ")
          .append(v.id())
          .append(" | ")
          .append(v.pass() ? v.status().name() : "**FAIL**")
          .append(" | ")
          .append(v.checked())
          .append(" | ")
          .append(v.violations())
          .append(" | ")
          .append(String.join(", ", v.examples()).replace("|", "\\|"))
          .append(" |\n");
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
