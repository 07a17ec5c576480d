package dev.once.kafka.spring;

import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/** Runs code after the current Spring transaction (a consumer's inbox transaction) committed. */
final class AfterCommit {
  private AfterCommit() {}

  /** {@code action} runs on the consumer's thread once its transaction committed, never before. */
  static void run(Runnable action) {
    TransactionSynchronizationManager.registerSynchronization(
        new TransactionSynchronization() {
          @Override
          public void afterCommit() {
            action.run();
          }
        });
  }
}
