package dev.once.outbox;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Rows and the claims that hold them, in ascending id order: the arguments of the store's batch
 * statements ({@link OutboxStore#completeAll}, {@link OutboxStore#renew}), so that every batch
 * locks its rows in one order.
 */
record HeldRows(long[] ids, UUID[] claimIds) {

  static <T> HeldRows of(Collection<T> rows, ToLongFunction<T> id, Function<T, UUID> claim) {
    List<T> sorted = new ArrayList<>(rows);
    sorted.sort(Comparator.comparingLong(id));
    long[] ids = new long[sorted.size()];
    UUID[] claimIds = new UUID[sorted.size()];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = id.applyAsLong(sorted.get(i));
      claimIds[i] = claim.apply(sorted.get(i));
    }
    return new HeldRows(ids, claimIds);
  }

  /** The rows of {@code flights}, each with the claim it was taken with. */
  static HeldRows of(Collection<Flight> flights) {
    return of(flights, flight -> flight.row.id(), flight -> flight.claimId);
  }
}
