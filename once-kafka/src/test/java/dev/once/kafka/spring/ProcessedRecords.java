package dev.once.kafka.spring;

import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.springframework.kafka.listener.BatchInterceptor;
import org.springframework.kafka.listener.BatchListenerFailedException;

/**
 * A {@link BatchInterceptor} for the tests' customizers that hands on each record the inbox
 * listener got to in a call: all of the call's records if it returned, and up to the one it failed
 * at (included) if it threw a {@link BatchListenerFailedException}. The records after a failed one
 * come again in a later call (the error handler seeks back to the failed one); they were handed to
 * the listener but not tried, so they are not counted until a call gets to them.
 */
final class ProcessedRecords implements BatchInterceptor<String, String> {
  private final Consumer<ConsumerRecord<String, String>> each;

  ProcessedRecords(Consumer<ConsumerRecord<String, String>> each) {
    this.each = each;
  }

  @Override
  public ConsumerRecords<String, String> intercept(
      ConsumerRecords<String, String> records,
      org.apache.kafka.clients.consumer.Consumer<String, String> consumer) {
    return records;
  }

  @Override
  public void success(
      ConsumerRecords<String, String> records,
      org.apache.kafka.clients.consumer.Consumer<String, String> consumer) {
    records.forEach(each);
  }

  @Override
  public void failure(
      ConsumerRecords<String, String> records,
      Exception exception,
      org.apache.kafka.clients.consumer.Consumer<String, String> consumer) {
    ConsumerRecord<?, ?> failed = failedRecord(exception);
    for (ConsumerRecord<String, String> record : records) {
      each.accept(record);
      if (failed != null
          && failed.partition() == record.partition()
          && failed.offset() == record.offset()
          && failed.topic().equals(record.topic())) {
        return;
      }
    }
  }

  private static ConsumerRecord<?, ?> failedRecord(Throwable exception) {
    for (Throwable cause = exception; cause != null; cause = cause.getCause()) {
      if (cause instanceof BatchListenerFailedException failed) {
        return failed.getRecord();
      }
    }
    return null;
  }
}
