package dev.once.spring.jpa;

import java.util.UUID;
import org.springframework.data.jpa.repository.JpaRepository;

/** The orders' Spring Data repository: its writes join the transaction in progress. */
public interface PlacedOrders extends JpaRepository<PlacedOrder, UUID> {}
