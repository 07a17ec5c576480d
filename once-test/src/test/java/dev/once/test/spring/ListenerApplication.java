package dev.once.test.spring;

import dev.once.spring.events.OnceEvent;
import dev.once.spring.events.OnceListener;
import javax.sql.DataSource;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A small application with one {@code @OnceListener} consumer, {@value #CONSUMER}, that counts a
 * reservation per event in table {@code kit_reservation}, through a JdbcTemplate (so its effect
 * joins the inbox's transaction only if Spring joined it).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class ListenerApplication {
  public static final String CONSUMER = "kit-reserve-stock";

  @OnceEvent(name = "kit.item.ordered")
  public record ItemOrdered(String itemId) {}

  @Bean
  Reservations reservations(DataSource dataSource) {
    JdbcTemplate jdbc = new JdbcTemplate(dataSource);
    jdbc.execute(
        "CREATE TABLE IF NOT EXISTS public.kit_reservation (item_id text NOT NULL, at timestamptz"
            + " NOT NULL DEFAULT now())");
    return new Reservations(jdbc);
  }

  /** The listener. */
  public static class Reservations {
    private final JdbcTemplate jdbc;

    Reservations(JdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    @OnceListener(consumer = CONSUMER)
    public void on(ItemOrdered event) {
      jdbc.update("INSERT INTO public.kit_reservation (item_id) VALUES (?)", event.itemId());
    }

    /** The reservations of {@code itemId}, committed. */
    public long of(String itemId) {
      return jdbc.queryForObject(
          "SELECT count(*) FROM public.kit_reservation WHERE item_id = ?", Long.class, itemId);
    }
  }
}
