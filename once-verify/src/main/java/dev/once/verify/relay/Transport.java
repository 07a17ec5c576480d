package dev.once.verify.relay;

/**
 * How the shop's order events go from its outbox to its consumers: in process (the relay calls the
 * consumers' handlers), or through Kafka ({@code SHOP_KAFKA_BOOTSTRAP}: the relay publishes, the
 * consumers read their consumer groups).
 */
enum Transport {
  IN_PROCESS("in process"),
  KAFKA("Kafka");

  private final String label;

  Transport(String label) {
    this.label = label;
  }

  /** "in process" or "Kafka", as the table names it. */
  @Override
  public String toString() {
    return label;
  }
}
