package dev.once.verify.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.verify.chaos.KafkaChecks.Row;
import dev.once.verify.chaos.KafkaChecks.Wire;
import dev.once.verify.report.Verdict;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The outside reader's checks of {@code chaos --kafka}, on records and rows made up here. */
class KafkaChecksTest {
  private final List<Row> rows = new ArrayList<>();
  private final Map<String, List<Wire>> wire = new LinkedHashMap<>();
  private final Map<String, String[]> orders = new LinkedHashMap<>();
  private final Map<String, String> payments = new LinkedHashMap<>();
  private final Set<String> inbox = new HashSet<>();
  private long offset;

  KafkaChecksTest() {
    for (String topic : KafkaChecks.CONSUMERS.keySet()) {
      wire.put(topic, new ArrayList<>());
    }
  }

  /** An event published, on the wire, and consumed. */
  private String event(String type, String aggregate, boolean onWire, boolean consumed) {
    String id = "00000000-0000-0000-0000-" + String.format("%012d", rows.size() + 1);
    rows.add(new Row(rows.size() + 1, id, type, aggregate, "delivered"));
    if (onWire) {
      record(type, aggregate, id, 0);
    }
    if (consumed) {
      inbox.add(id + "/" + KafkaChecks.CONSUMERS.get(type));
    }
    return id;
  }

  private void record(String topic, String key, String id, int partition) {
    wire.get(topic).add(new Wire(topic, partition, offset++, key, id, topic));
  }

  /** The verdict whose name starts with "kafka: " + {@code prefix}. */
  private Verdict run(String prefix) {
    for (Verdict v :
        KafkaChecks.evaluate(wire, Map.of(), rows, orders, payments, inbox, Map.of()).verdicts()) {
      if (v.id().startsWith("kafka: " + prefix)) {
        return v;
      }
    }
    throw new AssertionError("no verdict " + prefix);
  }

  private void paidOrder(String order, String payment) {
    event("order.placed", order, true, true);
    event("stock.reserved", order, true, true);
    event("payment.succeeded", payment, true, true);
    orders.put(order, new String[] {"paid", payment, "true"});
    payments.put(payment, "succeeded");
  }

  @Test
  void aCompleteRunPassesAndDuplicatesOnTheWireAreCountedNotFailed() {
    paidOrder("ord_1", "pay_1");
    String again = rows.get(0).messageId();
    record("order.placed", "ord_1", again, 0); // redelivered by the relay: at-least-once
    KafkaChecks.Outcome o =
        KafkaChecks.evaluate(wire, Map.of(), rows, orders, payments, inbox, Map.of());
    for (Verdict v : o.verdicts()) {
      assertThat(v.pass()).as(v.toString()).isTrue();
    }
    assertThat(o.facts().get("kafka duplicates on the wire (at-least-once, allowed)"))
        .isEqualTo(1L);
  }

  @Test
  void anEventLostBeforeItsConsumerIsCaughtByTheInbox() {
    paidOrder("ord_1", "pay_1");
    event("order.placed", "ord_2", true, false); // offset committed, transaction never ran
    orders.put("ord_2", new String[] {"placed", null, "false"});
    Verdict v = run("every event on the wire consumed");
    assertThat(!v.pass()).as(v.toString()).isTrue();
    assertThat(v.examples().get(0)).as(v.toString()).contains("ord_2");
  }

  @Test
  void anEventMissingFromItsTopicIsCaught() {
    paidOrder("ord_1", "pay_1");
    event("order.cancelled", "ord_1", false, false);
    orders.put("ord_1", new String[] {"cancelled", "pay_1", "true"});
    Verdict v = run("every published event");
    assertThat(!v.pass()).as(v.toString()).isTrue();
    assertThat(v.examples().toString()).as(v.toString()).contains("order.cancelled");
  }

  @Test
  void eventsOfOneKeyOutOfPublishOrderOrOnTwoPartitionsAreCaught() {
    event("order.placed", "ord_1", false, true);
    String second = event("order.placed", "ord_1", false, true);
    orders.put("ord_1", new String[] {"rejected", null, "false"});
    event("stock.rejected", "ord_1", true, true);
    record("order.placed", "ord_1", second, 0);
    record("order.placed", "ord_1", rows.get(0).messageId(), 0);
    assertThat(!run("per key").pass()).isTrue();
    wire.get("order.placed").clear();
    record("order.placed", "ord_1", rows.get(0).messageId(), 0);
    record("order.placed", "ord_1", second, 1);
    assertThat(!run("per key").pass()).isTrue();
  }
}
