package dev.once.outbox;

/** PLACEHOLDER: the relay engine is being written. */
final class DefaultOutboxRelay implements OutboxRelay {
  DefaultOutboxRelay(OutboxRelay.Builder settings) {}

  @Override
  public void start() {
    throw new UnsupportedOperationException("not yet");
  }

  @Override
  public void wakeUp() {}

  @Override
  public int runOnce() {
    throw new UnsupportedOperationException("not yet");
  }

  @Override
  public void close() {}
}
