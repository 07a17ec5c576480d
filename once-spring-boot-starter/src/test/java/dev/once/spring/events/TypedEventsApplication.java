package dev.once.spring.events;

import dev.once.testing.EffectTable;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.node.ObjectNode;

/**
 * An application with typed events: {@link ItemAdded} (version 2, with an upcaster from version 1)
 * and {@link ItemRemoved}, both taken by one consumer {@value #CONSUMER} made of two listener
 * methods, which count their effect in the effect table through a JdbcTemplate: it counts only if
 * Spring joined it to the inbox's transaction.
 */
@Configuration(proxyBeanMethods = false)
@AutoConfigurationPackage
public class TypedEventsApplication {
  public static final String CONSUMER = "typed-stock";
  public static final String ITEM_ADDED = "test.item.added";
  public static final String ITEM_REMOVED = "test.item.removed";

  /** Version 2: version 1 was {@code {"item": "..."}}, one unit. */
  @OnceEvent(name = ITEM_ADDED, version = 2)
  public record ItemAdded(String itemId, int quantity) {
    public ItemAdded {
      if (itemId == null || itemId.isEmpty()) {
        throw new IllegalArgumentException("itemId is required");
      }
    }
  }

  @OnceEvent(name = ITEM_REMOVED)
  public record ItemRemoved(String itemId) {}

  /** A record that is no event. */
  public record NotAnEvent(String itemId) {}

  @Bean
  Stock stock(DataSource dataSource) {
    return new Stock(new JdbcTemplate(dataSource));
  }

  @Bean
  EventUpcaster itemAddedFromVersion1() {
    return new EventUpcaster() {
      @Override
      public String event() {
        return ITEM_ADDED;
      }

      @Override
      public int fromVersion() {
        return 1;
      }

      @Override
      public ObjectNode upcast(ObjectNode payload) {
        ObjectNode next = payload.objectNode();
        next.put("itemId", payload.get("item").asString());
        next.put("quantity", 1);
        return next;
      }
    };
  }

  /** What the listeners were called with; an item id {@code fail} throws after the effect. */
  public record Call(Object event, EventMetadata metadata) {}

  public static class Stock {
    public final List<Call> calls = new CopyOnWriteArrayList<>();
    private final JdbcTemplate jdbc;

    Stock(JdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    @OnceListener(consumer = CONSUMER)
    void on(ItemAdded added, EventMetadata metadata) {
      jdbc.update(EffectTable.APPLY, metadata.messageId(), CONSUMER);
      calls.add(new Call(added, metadata));
      if (added.itemId().equals("fail")) {
        throw new IllegalStateException("warehouse down");
      }
    }

    @OnceListener(consumer = CONSUMER)
    public void on(ItemRemoved removed) {
      calls.add(new Call(removed, null));
    }
  }
}
