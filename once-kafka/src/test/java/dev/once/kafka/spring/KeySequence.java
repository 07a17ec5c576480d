package dev.once.kafka.spring;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A per-key sequence checker in the consumer's own transaction, set on the test application's
 * consumer while its context is built (before any record is applied): for each event of {@link
 * PublishedEvents#publish} ({@code {"seq": n}}, aggregate {@code n % test.aggregates}), it reads
 * its key's last applied sequence number, {@code FOR UPDATE}, and records an inversion unless that
 * is the key's previous event ({@code n - test.aggregates}, none for the first). Kept in the
 * database, committed with the effect or rolled back with it, so several processes check one
 * sequence: an inversion that commits is an event applied before an earlier one of its key, or
 * applied twice.
 */
@Configuration(proxyBeanMethods = false)
class KeySequence {
  private static final Pattern SEQ = Pattern.compile("\"seq\":\\s*(\\d+)");

  @Bean
  Object keySequenceCheck(
      KafkaTestApplication.EffectConsumer consumer, DataSource dataSource, Environment env) {
    String run = env.getRequiredProperty("test.run");
    int aggregates = env.getRequiredProperty("test.aggregates", Integer.class);
    JdbcTemplate jdbc = new JdbcTemplate(dataSource);
    create(jdbc);
    consumer.failing =
        message -> {
          Matcher matcher = SEQ.matcher(message.payloadJson());
          if (!matcher.find()) {
            throw new IllegalStateException("no seq in " + message.messageId());
          }
          int seq = Integer.parseInt(matcher.group(1));
          String key = message.aggregateId();
          List<Integer> last =
              jdbc.queryForList(
                  "SELECT seq FROM public.test_key_sequence WHERE run = ? AND key = ? FOR UPDATE",
                  Integer.class,
                  run,
                  key);
          Integer previous = last.isEmpty() ? null : last.get(0);
          Integer expected = seq < aggregates ? null : seq - aggregates;
          if (previous == null ? expected != null : !previous.equals(expected)) {
            jdbc.update(
                "INSERT INTO public.test_key_inversion (run, key, previous, seq) VALUES (?, ?, ?,"
                    + " ?)",
                run,
                key,
                previous,
                seq);
          }
          jdbc.update(
              "INSERT INTO public.test_key_sequence (run, key, seq) VALUES (?, ?, ?)"
                  + " ON CONFLICT (run, key) DO UPDATE SET seq = EXCLUDED.seq",
              run,
              key,
              seq);
          return false;
        };
    // Not the consumer itself: a second bean of its type would be a second inbox consumer.
    return run;
  }

  /** The inversions committed in run {@code run}: key, last sequence before, sequence applied. */
  static List<String> inversions(DataSource dataSource, String run) {
    return new JdbcTemplate(dataSource)
        .queryForList(
            "SELECT key || ': ' || coalesce(previous::text, 'none') || ' then ' || seq"
                + " FROM public.test_key_inversion WHERE run = ?",
            String.class,
            run);
  }

  private static void create(JdbcTemplate jdbc) {
    jdbc.execute(
        "CREATE TABLE IF NOT EXISTS public.test_key_sequence ("
            + " run text NOT NULL, key text NOT NULL, seq int NOT NULL, PRIMARY KEY (run, key))");
    jdbc.execute(
        "CREATE TABLE IF NOT EXISTS public.test_key_inversion ("
            + " run text NOT NULL, key text NOT NULL, previous int, seq int NOT NULL)");
  }
}
