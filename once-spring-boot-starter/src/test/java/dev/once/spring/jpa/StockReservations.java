package dev.once.spring.jpa;

import java.util.UUID;
import org.springframework.data.jpa.repository.JpaRepository;

/** The reservations' Spring Data repository. */
public interface StockReservations extends JpaRepository<StockReservation, UUID> {}
