package dev.once.verify.chaos;

import dev.once.verify.report.Verdict;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The checks of {@code chaos --kafka}, made as a service outside the shop would: a plain {@link
 * KafkaConsumer} in no group reads every event topic (and its dead-letter topic) from its first
 * offset to its end, and the records are compared with the database: the delivered outbox rows
 * (which a Kafka run keeps), the orders and payments, and the inbox rows of the shop's consumers.
 * Duplicates on the wire are allowed (at-least-once) and counted, never failed.
 */
final class KafkaChecks {
  /** Each event topic (named after its type) and the shop consumer that takes it. */
  static final Map<String, String> CONSUMERS;

  static {
    // The reader asks for end offsets of partitions it has not assigned: Kafka's client warns
    // about each of them every time, which says nothing here.
    String quiet =
        "org.slf4j.simpleLogger.log.org.apache.kafka.clients.consumer.internals.OffsetFetcherUtils";
    System.setProperty(quiet, System.getProperty(quiet, "error"));
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

  private static final Duration WAIT = Duration.ofMinutes(2);

  /** One record as read from a topic. */
  record Wire(
      String topic, int partition, long offset, String key, String messageId, String type) {}

  /** One outbox row of an event type. */
  record Row(long id, String messageId, String type, String aggregate, String state) {}

  /** What the checks found: the verdict rows and the facts for the report. */
  record Outcome(List<Verdict> verdicts, Map<String, Object> facts) {}

  private KafkaChecks() {}

  /**
   * Waits until each consumer group of the shop has committed up to the end of its topics; returns
   * the lag left per group (empty when caught up).
   */
  static Map<String, Long> awaitConsumed(String bootstrap, Duration timeout, PrintStream out)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    Map<String, Long> lag = Map.of();
    long lastPrint = 0;
    try (Admin admin = admin(bootstrap);
        KafkaConsumer<String, String> reader = reader(bootstrap)) {
      while (true) {
        try {
          lag = lag(admin, reader);
        } catch (Exception e) {
          lag = Map.of("(broker unreachable: " + e.getMessage() + ")", -1L);
        }
        if (lag.isEmpty()) {
          out.println("chaos: quiet: every consumer group is at the end of its topics");
          return lag;
        }
        if (System.nanoTime() > deadline) {
          return lag;
        }
        if (System.nanoTime() - lastPrint > 5_000_000_000L) {
          lastPrint = System.nanoTime();
          out.printf("  waiting: consumer lag %s%n", lag);
        }
        Thread.sleep(500); // polling the groups' offsets
      }
    }
  }

  /** How many records the event topics hold in all: unchanged over a while, nothing was added. */
  static long records(String bootstrap) {
    try (KafkaConsumer<String, String> reader = reader(bootstrap)) {
      List<TopicPartition> all = new ArrayList<>();
      for (String topic : CONSUMERS.keySet()) {
        all.addAll(partitions(reader, topic));
      }
      return reader.endOffsets(all, WAIT).values().stream().mapToLong(Long::longValue).sum();
    }
  }

  private static Map<String, Long> lag(Admin admin, KafkaConsumer<String, String> reader)
      throws Exception {
    Map<String, Long> lag = new TreeMap<>();
    Map<String, List<TopicPartition>> byGroup = new TreeMap<>();
    List<TopicPartition> all = new ArrayList<>();
    for (Map.Entry<String, String> e : CONSUMERS.entrySet()) {
      for (TopicPartition tp : partitions(reader, e.getKey())) {
        byGroup.computeIfAbsent(GROUP_PREFIX + e.getValue(), g -> new ArrayList<>()).add(tp);
        all.add(tp);
      }
    }
    Map<TopicPartition, Long> ends = reader.endOffsets(all, WAIT);
    for (Map.Entry<String, List<TopicPartition>> g : byGroup.entrySet()) {
      Map<TopicPartition, OffsetAndMetadata> committed =
          admin
              .listConsumerGroupOffsets(g.getKey())
              .partitionsToOffsetAndMetadata()
              .get(WAIT.toSeconds(), TimeUnit.SECONDS);
      long behind = 0;
      for (TopicPartition tp : g.getValue()) {
        OffsetAndMetadata at = committed.get(tp);
        behind += Math.max(0, ends.getOrDefault(tp, 0L) - (at == null ? 0 : at.offset()));
      }
      if (behind > 0) {
        lag.put(g.getKey(), behind);
      }
    }
    return lag;
  }

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
    try (KafkaConsumer<String, String> reader = reader(bootstrap)) {
      for (Wire w : readAll(reader, topics)) {
        if (w.topic().endsWith(DEAD_LETTER)) {
          deadLetters.merge(w.topic(), 1L, Long::sum);
        } else {
          wire.get(w.topic()).add(w);
        }
      }
    }
    List<Row> rows = new ArrayList<>();
    Map<String, String[]> orders = new TreeMap<>(); // id -> {status, payment_id, reserved_at}
    Map<String, String> payments = new TreeMap<>(); // id -> status, of the orders' payments
    Set<String> inbox = new HashSet<>(); // message id + "/" + consumer
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      String types = "'" + String.join("','", CONSUMERS.keySet()) + "'";
      try (ResultSet rs =
          s.executeQuery(
              "SELECT id, message_id::text, type, aggregate_id, state FROM once.outbox"
                  + " WHERE type IN ("
                  + types
                  + ") ORDER BY id")) {
        while (rs.next()) {
          rows.add(
              new Row(
                  rs.getLong(1),
                  rs.getString(2),
                  rs.getString(3),
                  rs.getString(4),
                  rs.getString(5)));
        }
      }
      try (ResultSet rs =
          s.executeQuery(
              "SELECT id, status, payment_id, reserved_at IS NOT NULL FROM orders ORDER BY id")) {
        while (rs.next()) {
          orders.put(
              rs.getString(1),
              new String[] {rs.getString(2), rs.getString(3), Boolean.toString(rs.getBoolean(4))});
        }
      }
      // Only a payment made for an order publishes its outcome (the shop's V7 order_id).
      try (ResultSet rs =
          s.executeQuery("SELECT id, status FROM payment WHERE order_id IS NOT NULL")) {
        while (rs.next()) {
          payments.put(rs.getString(1), rs.getString(2));
        }
      }
      try (ResultSet rs = s.executeQuery("SELECT message_id::text, consumer FROM once.inbox")) {
        while (rs.next()) {
          inbox.add(rs.getString(1) + "/" + rs.getString(2));
        }
      }
    }
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

  /** Every record of {@code topics}, from the first offset of each partition to its end. */
  private static List<Wire> readAll(KafkaConsumer<String, String> reader, List<String> topics) {
    List<TopicPartition> partitions = new ArrayList<>();
    for (String topic : topics) {
      partitions.addAll(partitions(reader, topic));
    }
    String topic = String.join(", ", topics);
    List<Wire> got = new ArrayList<>();
    if (partitions.isEmpty()) {
      return got;
    }
    reader.assign(partitions);
    reader.seekToBeginning(partitions);
    Map<TopicPartition, Long> ends = reader.endOffsets(partitions, WAIT);
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      boolean done = true;
      for (TopicPartition tp : partitions) {
        if (reader.position(tp, WAIT) < ends.get(tp)) {
          done = false;
          break;
        }
      }
      if (done) {
        break;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("could not read " + topic + " to its end in " + WAIT);
      }
      for (ConsumerRecord<String, String> r : reader.poll(Duration.ofMillis(500))) {
        got.add(
            new Wire(
                r.topic(),
                r.partition(),
                r.offset(),
                r.key(),
                header(r, MESSAGE_ID),
                header(r, TYPE)));
      }
    }
    return got;
  }

  private static String header(ConsumerRecord<String, String> r, String name) {
    Header h = r.headers().lastHeader(name);
    return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
  }

  private static List<TopicPartition> partitions(
      KafkaConsumer<String, String> reader, String topic) {
    List<PartitionInfo> infos = reader.listTopics(WAIT).get(topic);
    List<TopicPartition> tps = new ArrayList<>();
    if (infos != null) {
      for (PartitionInfo i : infos) {
        tps.add(new TopicPartition(i.topic(), i.partition()));
      }
    }
    return tps;
  }

  private static KafkaConsumer<String, String> reader(String bootstrap) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, "once-verify-chaos-reader");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
    return new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
  }

  private static Admin admin(String bootstrap) {
    return Admin.create(
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrap,
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
            (int) WAIT.toMillis()));
  }
}
