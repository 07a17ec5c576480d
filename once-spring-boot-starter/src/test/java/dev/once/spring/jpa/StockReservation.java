package dev.once.spring.jpa;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.UUID;

/** What the inbox consumer writes, through Spring Data JPA, for each order it is handed. */
@Entity
@Table(name = "jpa_stock_reservation")
public class StockReservation {
  @Id
  @GeneratedValue(strategy = GenerationType.UUID)
  private UUID id;

  @Column(name = "message_id", nullable = false)
  private UUID messageId;

  @Column(nullable = false)
  private String tag;

  protected StockReservation() {}

  StockReservation(UUID messageId, String tag) {
    this.messageId = messageId;
    this.tag = tag;
  }

  public UUID getId() {
    return id;
  }
}
