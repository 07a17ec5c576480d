package dev.once.verify.chaos;

import dev.once.verify.report.Verdict;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The checks of {@code chaos --kafka}, made as a service outside the shop would: a plain consumer
 * in no group ({@link KafkaReader}) reads every event topic (and its dead-letter topic) from its
 * first offset to its end, and the records are compared with the database: the delivered outbox
 * rows (which a Kafka run keeps), the orders and payments, and the inbox rows of the shop's
 * consumers. Duplicates on the wire are allowed (at-least-once) and counted, never failed.
 */
final class KafkaChecks {
  /** Each event topic (named after its type) and the shop consumer that takes it. */
  static final Map<String, String> CONSUMERS;

  static {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("order.placed", "reserve-stock");
    c.put("order.cancelled", "release-stock");
    c.put("stock.reserved", "orders");
    c.put("stock.rejected", "orders");
    c.put("payment.succeeded", "orders");
    c.put("payment.failed", "orders");
    CONSUMERS = java.util.Collections.unmodifiableMap(c);
  }

  static final String DEAD_LETTER = ".dlt";
  static final String GROUP_PREFIX = "once-shop.";
  static final String MESSAGE_ID = "once-message-id";
  static final String TYPE = "once-type";

  /** One record as read from a topic. */
  record Wire(
      String topic, int partition, long offset, String key, String messageId, String type) {}

  /** One outbox row of an event type. */
  record Row(long id, String messageId, String type, String aggregate, String state) {}

  /** What the checks found: the verdict rows and the facts for the report. */
  record Outcome(List<Verdict> verdicts, Map<String, Object> facts) {}

  private KafkaChecks() {}

  /** Reads the topics, reads the database, and checks one against the other. */
  static Outcome check(String bootstrap, ChaosDatabase db, Map<String, Long> lagLeft)
      throws Exception {
    Map<String, List<Wire>> wire = new LinkedHashMap<>();
    Map<String, Long> deadLetters = new TreeMap<>();
    List<String> topics = new ArrayList<>();
    for (String topic : CONSUMERS.keySet()) {
      wire.put(topic, new ArrayList<>());
      deadLetters.put(topic + DEAD_LETTER, 0L);
      topics.add(topic);
      topics.add(topic + DEAD_LETTER);
    }
    for (Wire w : KafkaReader.readAll(bootstrap, topics)) {
      if (w.topic().endsWith(DEAD_LETTER)) {
        deadLetters.merge(w.topic(), 1L, Long::sum);
      } else {
        wire.get(w.topic()).add(w);
      }
    }
    String types = "'" + String.join("','", CONSUMERS.keySet()) + "'";
    List<Row> rows =
        db.rows(
            "SELECT id, message_id::text, type, aggregate_id, state FROM once.outbox"
                + (" WHERE type IN (" + types + ") ORDER BY id"),
            rs ->
                new Row(
                    rs.getLong(1),
                    rs.getString(2),
                    rs.getString(3),
                    rs.getString(4),
                    rs.getString(5)));
    Map<String, String[]> orders = new TreeMap<>(); // id -> {status, payment_id, reserved_at}
    db.rows(
        "SELECT id, status, payment_id, reserved_at IS NOT NULL FROM orders ORDER BY id",
        rs ->
            orders.put(
                rs.getString(1),
                new String[] {
                  rs.getString(2), rs.getString(3), Boolean.toString(rs.getBoolean(4))
                }));
    // Only a payment made for an order publishes its outcome (the shop's V7 order_id).
    Map<String, String> payments = new TreeMap<>(); // id -> status, of the orders' payments
    db.rows(
        "SELECT id, status FROM payment WHERE order_id IS NOT NULL",
        rs -> payments.put(rs.getString(1), rs.getString(2)));
    Set<String> inbox = // message id + "/" + consumer
        new HashSet<>(
            db.rows(
                "SELECT message_id::text, consumer FROM once.inbox",
                rs -> rs.getString(1) + "/" + rs.getString(2)));
    return evaluate(wire, deadLetters, rows, orders, payments, inbox, lagLeft);
  }

  /** The checks proper, on what was read (a seam for tests). */
  static Outcome evaluate(
      Map<String, List<Wire>> wire,
      Map<String, Long> deadLetters,
      List<Row> rows,
      Map<String, String[]> orders,
      Map<String, String> payments,
      Set<String> inbox,
      Map<String, Long> lagLeft) {
    Map<String, Row> byMessage = new HashMap<>();
    for (Row r : rows) {
      byMessage.put(r.messageId(), r);
    }
    // Per topic: the message ids on the wire, and the keys on the wire.
    Map<String, Set<String>> messagesOn = new HashMap<>();
    Map<String, Set<String>> keysOn = new HashMap<>();
    long records = 0;
    long distinct = 0;
    Map<String, Object> perTopic = new LinkedHashMap<>();
    for (Map.Entry<String, List<Wire>> e : wire.entrySet()) {
      Set<String> ids = new HashSet<>();
      Set<String> keys = new HashSet<>();
      for (Wire w : e.getValue()) {
        if (w.messageId() != null) {
          ids.add(w.messageId());
        }
        if (w.key() != null) {
          keys.add(w.key());
        }
      }
      messagesOn.put(e.getKey(), ids);
      keysOn.put(e.getKey(), keys);
      records += e.getValue().size();
      distinct += ids.size();
      perTopic.put(
          e.getKey(),
          e.getValue().size()
              + " records, "
              + ids.size()
              + " events, "
              + (e.getValue().size() - ids.size())
              + " duplicates");
    }

    // 1. Every event the database says was published is on its topic.
    List<String> missing = new ArrayList<>();
    long expected = 0;
    for (Row r : rows) {
      if (!"delivered".equals(r.state())) {
        continue; // pending or dead: the quiet and dead-row checks own those
      }
      expected++;
      if (!messagesOn.getOrDefault(r.type(), Set.of()).contains(r.messageId())) {
        missing.add(r.type() + " " + r.messageId() + " of " + r.aggregate() + " (outbox row)");
      }
    }
    for (Map.Entry<String, String[]> o : orders.entrySet()) {
      String id = o.getKey();
      String status = o.getValue()[0];
      expected += need(keysOn, "order.placed", id, missing);
      if (Set.of("reserved", "paid").contains(status) || "true".equals(o.getValue()[2])) {
        expected += need(keysOn, "stock.reserved", id, missing);
      }
      if ("rejected".equals(status)) {
        expected += need(keysOn, "stock.rejected", id, missing);
      }
      if ("cancelled".equals(status)) {
        expected += need(keysOn, "order.cancelled", id, missing);
      }
      if ("paid".equals(status) && o.getValue()[1] != null) {
        expected += need(keysOn, "payment.succeeded", o.getValue()[1], missing);
      }
    }
    for (Map.Entry<String, String> p : payments.entrySet()) {
      if ("succeeded".equals(p.getValue())) {
        expected += need(keysOn, "payment.succeeded", p.getKey(), missing);
      } else if ("failed".equals(p.getValue())) {
        expected += need(keysOn, "payment.failed", p.getKey(), missing);
      }
    }

    // 2. Each record names its event: a message id of the outbox, its type, its aggregate as key.
    List<String> malformed = new ArrayList<>();
    for (List<Wire> topic : wire.values()) {
      for (Wire w : topic) {
        Row r = w.messageId() == null ? null : byMessage.get(w.messageId());
        String where = w.topic() + "-" + w.partition() + "@" + w.offset();
        if (w.messageId() == null) {
          malformed.add(where + " (no " + MESSAGE_ID + ")");
        } else if (!w.topic().equals(w.type())) {
          malformed.add(where + " (" + TYPE + " " + w.type() + ")");
        } else if (r == null) {
          malformed.add(where + " (message " + w.messageId() + " is in no outbox row)");
        } else if (!r.type().equals(w.topic()) || !r.aggregate().equals(w.key())) {
          malformed.add(where + " (key " + w.key() + ", outbox " + r.type() + "/" + r.aggregate());
        }
      }
    }

    // 3. Per key, the events appear in the order they were published (first occurrences), and
    // one key stays on one partition.
    List<String> disordered = new ArrayList<>();
    long keys = 0;
    for (Map.Entry<String, List<Wire>> e : wire.entrySet()) {
      Map<String, Set<Integer>> partitions = new HashMap<>();
      Map<String, LinkedHashSet<String>> firsts = new LinkedHashMap<>();
      for (Wire w : e.getValue()) {
        if (w.key() == null || w.messageId() == null) {
          continue;
        }
        partitions.computeIfAbsent(w.key(), k -> new HashSet<>()).add(w.partition());
        firsts.computeIfAbsent(w.key(), k -> new LinkedHashSet<>()).add(w.messageId());
      }
      for (Map.Entry<String, LinkedHashSet<String>> k : firsts.entrySet()) {
        keys++;
        if (partitions.get(k.getKey()).size() > 1) {
          disordered.add(
              e.getKey() + " " + k.getKey() + " (partitions " + partitions.get(k.getKey()));
          continue;
        }
        List<String> seen = new ArrayList<>(k.getValue());
        List<String> published = new ArrayList<>(seen);
        published.removeIf(m -> !byMessage.containsKey(m));
        published.sort(java.util.Comparator.comparingLong(m -> byMessage.get(m).id()));
        List<String> seenKnown = new ArrayList<>(seen);
        seenKnown.removeIf(m -> !byMessage.containsKey(m));
        if (!seenKnown.equals(published)) {
          disordered.add(
              e.getKey() + " " + k.getKey() + " (" + seenKnown + ", published " + published);
        }
      }
      // records within one partition come back in offset order, which the reader keeps
    }

    // 4. Each event was consumed by its consumer: its inbox row (message id, consumer) exists.
    List<String> unconsumed = new ArrayList<>();
    long consumed = 0;
    for (Map.Entry<String, Set<String>> e : messagesOn.entrySet()) {
      String consumer = CONSUMERS.get(e.getKey());
      for (String m : new java.util.TreeSet<>(e.getValue())) {
        consumed++;
        if (!inbox.contains(m + "/" + consumer)) {
          Row r = byMessage.get(m);
          unconsumed.add(
              e.getKey() + " " + m + (r == null ? "" : " of " + r.aggregate()) + " by " + consumer);
        }
      }
    }

    // 5. The groups reached the end of their topics.
    List<String> behind = new ArrayList<>();
    lagLeft.forEach((g, n) -> behind.add(g + " (" + n + " behind)"));

    List<Verdict> verdicts = new ArrayList<>();
    verdicts.add(
        Verdict.of(
            "kafka: every published event is on its topic (outbox, orders, payments)",
            expected,
            missing));
    verdicts.add(
        Verdict.of(
            "kafka: each record carries its message id, type and aggregate key",
            records,
            malformed));
    verdicts.add(
        Verdict.of("kafka: per key, events in publish order, one partition", keys, disordered));
    verdicts.add(
        Verdict.of(
            "kafka: every event on the wire consumed by its consumer (inbox row)",
            consumed,
            unconsumed));
    verdicts.add(
        Verdict.of("kafka: consumer groups at the end of their topics", GROUPS.size(), behind));

    Map<String, Object> facts = new LinkedHashMap<>();
    facts.put("kafka records read", records);
    facts.put("kafka events (distinct message ids)", distinct);
    facts.put("kafka duplicates on the wire (at-least-once, allowed)", records - distinct);
    facts.put("kafka topics", perTopic);
    facts.put("kafka dead letters", deadLetters);
    facts.put("kafka outbox events", rows.size());
    return new Outcome(verdicts, facts);
  }

  private static final Set<String> GROUPS = new HashSet<>(CONSUMERS.values());

  private static int need(
      Map<String, Set<String>> keysOn, String topic, String key, List<String> missing) {
    if (!keysOn.getOrDefault(topic, Set.of()).contains(key)) {
      missing.add(topic + " for " + key);
    }
    return 1;
  }
}
