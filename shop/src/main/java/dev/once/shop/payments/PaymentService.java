package dev.once.shop.payments;

import dev.once.outbox.Completion;
import dev.once.outbox.OutboxMessage;
import dev.once.shop.accounts.Account;
import dev.once.shop.accounts.AccountService;
import dev.once.shop.accounts.CurrencyMismatchException;
import dev.once.shop.accounts.InsufficientFundsException;
import dev.once.shop.accounts.Money;
import dev.once.shop.events.ShopEvents;
import dev.once.shop.persistence.Ids;
import dev.once.shop.persistence.Timestamps;
import dev.once.shop.problems.InvalidRequestException;
import dev.once.shop.problems.NotFoundException;
import dev.once.shop.problems.ShopProblem;
import dev.once.spring.events.OnceEvents;
import dev.once.spring.outbox.TransactionalOutbox;
import java.math.BigDecimal;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.json.JsonMapper;

/**
 * Payments and refunds. Each public method is one transaction (joined to the request's when Once
 * opened one): the money movement, the payment or refund row and the outbox message for the
 * provider commit together or not at all, and the provider is never called from here (G3).
 * Thread-safe; concurrent requests on one account or payment are serialized by row locks.
 */
@Service
public class PaymentService {
  /** Outbox message type of a charge for the provider. */
  public static final String PROVIDER_CHARGE = "provider.charge";

  /** Outbox message type of a refund for the provider. */
  public static final String PROVIDER_REFUND = "provider.refund";

  /** Event published when the provider accepted a payment. */
  public static final String PAYMENT_SUCCEEDED = ShopEvents.PAYMENT_SUCCEEDED;

  /** Event published when the provider declined a payment (its charge is already given back). */
  public static final String PAYMENT_FAILED = ShopEvents.PAYMENT_FAILED;

  private final PaymentRepository payments;
  private final AccountService accounts;
  private final TransactionalOutbox outbox;
  private final OnceEvents events;
  private final JsonMapper json;
  private final Clock clock;

  PaymentService(
      PaymentRepository payments,
      AccountService accounts,
      TransactionalOutbox outbox,
      OnceEvents events,
      JsonMapper json,
      Clock clock) {
    this.payments = payments;
    this.accounts = accounts;
    this.outbox = outbox;
    this.events = events;
    this.json = json;
    this.clock = clock;
  }

  /**
   * Charges the account and records a pending payment, with a {@value #PROVIDER_CHARGE} message.
   * The payment pays no order: its settlement publishes no event.
   *
   * @throws NotFoundException {@code account-not-found}, also for another client's account
   * @throws CurrencyMismatchException if the account holds another currency
   * @throws InsufficientFundsException if the balance is below {@code amount}
   */
  @Transactional
  public Payment create(
      String client,
      String accountId,
      BigDecimal amount,
      String currency,
      Optional<String> description) {
    return charge(client, accountId, amount, currency, description, Optional.empty());
  }

  /**
   * As {@link #create}, for the order {@code orderId} (the caller holds its row lock): the payment
   * records the order it pays, and its settlement publishes {@value #PAYMENT_SUCCEEDED} or {@value
   * #PAYMENT_FAILED} for the order to apply.
   */
  @Transactional
  public Payment createForOrder(
      String client,
      String orderId,
      String accountId,
      BigDecimal amount,
      String currency,
      Optional<String> description) {
    return charge(client, accountId, amount, currency, description, Optional.of(orderId));
  }

  private Payment charge(
      String client,
      String accountId,
      BigDecimal amount,
      String currency,
      Optional<String> description,
      Optional<String> orderId) {
    if (!Ids.isWellFormed(Ids.ACCOUNT, accountId)) {
      throw AccountService.accountNotFound();
    }
    Payment payment =
        payments
            .charge(
                client,
                accountId,
                amount,
                currency,
                description,
                orderId,
                Ids.next(Ids.PAYMENT),
                Ids.next(Ids.OPERATION),
                Timestamps.now(clock))
            .orElseThrow(() -> whyNoCharge(client, accountId, currency));
    Map<String, Object> payload = new LinkedHashMap<>();
    payload.put("paymentId", payment.id());
    payload.put("accountId", payment.accountId());
    payload.put("amount", Money.format(payment.amount()));
    payload.put("currency", payment.currency());
    payload.put("chargeOperationId", payment.chargeOperationId());
    outbox.append(
        new OutboxMessage(PROVIDER_CHARGE, payment.id(), json.writeValueAsString(payload)));
    return payment;
  }

  /**
   * The client's payment. One statement, so no transaction of its own (it joins the caller's, if
   * any): BEGIN and COMMIT would double the round trips of a single-row read.
   *
   * @throws NotFoundException {@code payment-not-found}, also for another client's payment and for
   *     an id that is not a payment id at all
   */
  public Payment get(String client, String paymentId) {
    if (!Ids.isWellFormed(Ids.PAYMENT, paymentId)) {
      throw paymentNotFound();
    }
    return payments.find(client, paymentId).orElseThrow(PaymentService::paymentNotFound);
  }

  /**
   * Refunds part or all of a succeeded payment that belongs to no order (or to a cancelled one):
   * reserves the amount on the payment, records a pending refund and a {@value #PROVIDER_REFUND}
   * message. No money moves until the provider confirms the refund ({@link #settleRefund}).
   *
   * @throws NotFoundException {@code payment-not-found}
   * @throws InvalidRequestException {@code invalid-amount} if the amount has more fraction digits
   *     than the payment's currency
   * @throws RefundRejectedException if the payment belongs to an order that is not cancelled, is
   *     not succeeded, or the refunds would exceed its amount
   */
  @Transactional
  public Refund refund(String client, String paymentId, BigDecimal amount) {
    return refund(client, paymentId, amount, false);
  }

  /**
   * As {@link #refund(String, String, BigDecimal)}, for the order that the payment belongs to: its
   * cancellation refunds it, in the cancellation's transaction, under the order's row lock.
   */
  @Transactional
  public Refund refundThroughOrder(String client, String paymentId, BigDecimal amount) {
    return refund(client, paymentId, amount, true);
  }

  private Refund refund(String client, String paymentId, BigDecimal amount, boolean throughOrder) {
    if (!Ids.isWellFormed(Ids.PAYMENT, paymentId)) {
      throw paymentNotFound();
    }
    PaymentRepository.AcceptedRefund accepted =
        payments
            .refund(
                client,
                paymentId,
                amount,
                throughOrder,
                Ids.next(Ids.REFUND),
                Timestamps.now(clock))
            .orElseThrow(() -> whyNoRefund(client, paymentId, amount, throughOrder));
    Refund refund = accepted.refund();
    Map<String, Object> payload = new LinkedHashMap<>();
    payload.put("refundId", refund.id());
    payload.put("paymentId", refund.paymentId());
    payload.put("amount", Money.format(refund.amount()));
    payload.put("currency", accepted.currency());
    outbox.append(
        new OutboxMessage(PROVIDER_REFUND, refund.paymentId(), json.writeValueAsString(payload)));
    return refund;
  }

  /**
   * Records the provider's final answer for a payment: {@code succeeded}, or {@code failed} with a
   * reversal row that gives the whole charge back, in one statement, and, if an order waits for the
   * payment (it was made by {@link #createForOrder}), publishes {@value #PAYMENT_SUCCEEDED} or
   * {@value #PAYMENT_FAILED} through the outbox in the same transaction (to the inbox consumers of
   * that type; written only if there is one). A payment made through {@code /v1/payments} publishes
   * nothing: no consumer needs its outcome. Repeating the same answer is a no-op that publishes
   * nothing (a redelivered provider answer must neither reverse nor publish twice); any other
   * change from a final status is refused.
   *
   * @throws IllegalArgumentException if {@code outcome} is {@code pending}
   * @throws NotFoundException {@code payment-not-found}
   * @throws IllegalPaymentTransitionException if the payment already has the other outcome
   */
  @Transactional
  public Payment settle(String paymentId, PaymentStatus outcome) {
    return settle(paymentId, outcome, Completion.NONE);
  }

  /**
   * As {@link #settle(String, PaymentStatus)}, and completes the outbox row that carried the
   * provider's answer in the same transaction: the settlement and the row's completion commit
   * together (one commit), or neither does.
   *
   * @throws dev.once.outbox.ClaimLostException if the relay no longer holds the row; nothing is
   *     written
   */
  @Transactional
  public Payment settle(String paymentId, PaymentStatus outcome, Completion completion) {
    Payment settled = settled(paymentId, outcome);
    outbox.completeInTransaction(completion);
    return settled;
  }

  /** A provider's final answer for one payment, as {@link #settleAll} records it. */
  public record Settlement(String paymentId, PaymentStatus outcome) {}

  /** Wraps the recording of one answer of {@link #settleAll}, e.g. in an observation. */
  @FunctionalInterface
  public interface EachSettlement {
    /** Calls {@code record} once, on the calling thread, and returns what it returned. */
    Payment settle(Settlement settlement, Supplier<Payment> record);
  }

  /**
   * Records several provider answers in ONE transaction, each exactly as {@link #settle(String,
   * PaymentStatus)} records it (the same compare-and-set, reversal and event, the same no-op for a
   * repeated answer), and completes the outbox rows of {@code completion} in it: all of it commits
   * together, or nothing does. It locks the payments first, in one statement and in id order, then
   * records the answers in the order of their accounts (a decline's reversal locks its account), so
   * two batches, or a batch and a single settlement, take their payments and accounts in one order
   * and cannot deadlock.
   *
   * @param settlements distinct payments
   * @param each wraps the recording of each answer, in the transaction
   * @return the payments as recorded, in the order of {@code settlements}
   * @throws NotFoundException {@code payment-not-found} for any of them: nothing is written
   * @throws IllegalPaymentTransitionException if any of them already has the other outcome: nothing
   *     is written
   * @throws dev.once.outbox.ClaimLostException if the relay no longer holds one of the rows:
   *     nothing is written
   */
  @Transactional
  public List<Payment> settleAll(
      List<Settlement> settlements, Completion completion, EachSettlement each) {
    Map<String, String> accounts =
        payments.lockAll(settlements.stream().map(Settlement::paymentId).toList());
    List<Settlement> inLockOrder = new ArrayList<>(settlements);
    inLockOrder.sort(
        Comparator.comparing((Settlement s) -> accounts.getOrDefault(s.paymentId(), ""))
            .thenComparing(Settlement::paymentId));
    Map<String, Payment> settled = new HashMap<>();
    for (Settlement settlement : inLockOrder) {
      settled.put(
          settlement.paymentId(),
          each.settle(settlement, () -> settled(settlement.paymentId(), settlement.outcome())));
    }
    outbox.completeInTransaction(completion);
    return settlements.stream().map(s -> settled.get(s.paymentId())).toList();
  }

  private Payment settled(String paymentId, PaymentStatus outcome) {
    if (!outcome.isTerminal()) {
      throw new IllegalArgumentException("a provider outcome is succeeded or failed");
    }
    Optional<Payment> moved =
        outcome == PaymentStatus.SUCCEEDED
            ? payments.markSucceeded(paymentId, Timestamps.now(clock))
            : payments.markFailed(paymentId, Ids.next(Ids.OPERATION), Timestamps.now(clock));
    if (moved.isPresent()) {
      if (moved.get().orderId().isPresent()) {
        publish(moved.get());
      }
      return moved.get();
    }
    Payment current = payments.state(paymentId).orElseThrow(PaymentService::paymentNotFound);
    return unchanged(paymentId, current.status(), outcome, current);
  }

  /**
   * Records the provider's final answer for a refund, in one statement: {@code succeeded}, which
   * credits the account with the refund's amount (a {@code refund} journal row), or {@code failed},
   * which releases the refund's reservation on the payment and moves no money. Repeating the same
   * answer is a no-op.
   *
   * @throws IllegalArgumentException if {@code outcome} is {@code pending}
   * @throws NotFoundException {@code refund-not-found}
   * @throws IllegalPaymentTransitionException if the refund already has the other outcome
   * @throws RefundReversalException only for a refund written before V6, which credited the account
   *     at request time: the provider refused it and the account no longer holds the credit to take
   *     back; nothing is written
   */
  @Transactional
  public Refund settleRefund(String refundId, PaymentStatus outcome) {
    return settleRefund(refundId, outcome, Completion.NONE);
  }

  /**
   * As {@link #settleRefund(String, PaymentStatus)}, and completes the outbox row that carried the
   * provider's answer in the same transaction.
   *
   * @throws dev.once.outbox.ClaimLostException if the relay no longer holds the row; nothing is
   *     written
   */
  @Transactional
  public Refund settleRefund(String refundId, PaymentStatus outcome, Completion completion) {
    Refund settled = settledRefund(refundId, outcome);
    outbox.completeInTransaction(completion);
    return settled;
  }

  private Refund settledRefund(String refundId, PaymentStatus outcome) {
    if (!outcome.isTerminal()) {
      throw new IllegalArgumentException("a provider outcome is succeeded or failed");
    }
    Optional<Refund> moved =
        outcome == PaymentStatus.SUCCEEDED
            ? payments.markRefundSucceeded(refundId, Ids.next(Ids.OPERATION), Timestamps.now(clock))
            : payments.markRefundFailed(refundId, Ids.next(Ids.OPERATION), Timestamps.now(clock));
    if (moved.isPresent()) {
      return moved.get();
    }
    Refund current =
        payments
            .refundState(refundId)
            .orElseThrow(
                () ->
                    new NotFoundException(
                        ShopProblem.REFUND_NOT_FOUND, "No refund with this id exists."));
    return unchanged(refundId, current.status(), outcome, current);
  }

  /** The refunds of the client's payment, oldest first. */
  public List<Refund> refunds(String client, String paymentId) {
    get(client, paymentId);
    return payments.refunds(paymentId);
  }

  private void publish(Payment payment) {
    String amount = Money.format(payment.amount());
    String status = payment.status().wireName();
    events.publish(
        payment.id(),
        payment.status() == PaymentStatus.SUCCEEDED
            ? new ShopEvents.PaymentSucceeded(
                payment.id(), payment.accountId(), amount, payment.currency(), status)
            : new ShopEvents.PaymentFailed(
                payment.id(), payment.accountId(), amount, payment.currency(), status));
  }

  /** The answer when a compare-and-set from pending moved nothing. */
  private static <T> T unchanged(String id, PaymentStatus current, PaymentStatus outcome, T state) {
    if (current == outcome) {
      return state;
    }
    if (!current.canTransitionTo(outcome)) {
      throw new IllegalPaymentTransitionException(id, current, outcome);
    }
    // Pending, yet the compare-and-set missed: impossible under the row lock it takes.
    throw new IllegalStateException(id + " is pending but was not moved");
  }

  /** Why the charge wrote nothing; read only on that failure path. */
  private RuntimeException whyNoCharge(String client, String accountId, String currency) {
    Account account;
    try {
      account = accounts.get(client, accountId);
    } catch (NotFoundException e) {
      return e;
    }
    if (!account.currency().equals(currency)) {
      return new CurrencyMismatchException(accountId, account.currency(), currency);
    }
    return new InsufficientFundsException(accountId);
  }

  /** Why the refund wrote nothing; read only on that failure path. */
  private RuntimeException whyNoRefund(
      String client, String paymentId, BigDecimal amount, boolean throughOrder) {
    Payment payment = payments.find(client, paymentId).orElse(null);
    if (payment == null) {
      return paymentNotFound();
    }
    if (!throughOrder) {
      if (Money.fractionDigits(amount) > Money.minorUnits(payment.currency())) {
        return Money.tooPrecise("amount", payment.currency());
      }
      Optional<String> order = payments.orderStatus(paymentId);
      if (order.isPresent() && !order.get().equals("cancelled")) {
        return RefundRejectedException.belongsToOrder(order.get());
      }
    }
    if (payment.status() != PaymentStatus.SUCCEEDED) {
      return RefundRejectedException.notRefundable(payment.status());
    }
    return RefundRejectedException.exceedsPayment(
        Money.format(payment.amount().subtract(payment.refunded())));
  }

  private static NotFoundException paymentNotFound() {
    return new NotFoundException(
        ShopProblem.PAYMENT_NOT_FOUND, "No payment with this id exists for this client.");
  }
}
