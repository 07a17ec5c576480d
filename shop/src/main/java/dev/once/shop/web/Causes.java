package dev.once.shop.web;

/** Walks a cause chain. */
final class Causes {
  private Causes() {}

  /** Whether {@code failure} or one of its causes is a {@code type}. */
  static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }
}
