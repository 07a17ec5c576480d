package dev.once.shop.accounts;

import dev.once.shop.clients.AuthenticatedClient;
import dev.once.shop.openapi.Created;
import dev.once.shop.openapi.CreatedAt;
import dev.once.shop.openapi.OpenApiConfiguration;
import dev.once.shop.openapi.Problems;
import dev.once.shop.problems.InvalidRequestException;
import dev.once.shop.problems.ShopProblem;
import dev.once.spring.web.Idempotent;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /v1/accounts}: open accounts, read them, pay in, and page through their journal. Every
 * POST needs an Idempotency-Key ({@link Idempotent}).
 */
@Idempotent
@RestController
@RequestMapping(path = "/v1/accounts", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "accounts", description = "Accounts and their append-only ledger")
@SecurityRequirement(name = OpenApiConfiguration.API_KEY_SCHEME)
class AccountController {
  static final int DEFAULT_LIMIT = 50;
  static final int MAX_LIMIT = 200;
  private static final Pattern LIMIT = Pattern.compile("[0-9]{1,3}");

  private final AccountService accounts;

  AccountController(AccountService accounts) {
    this.accounts = accounts;
  }

  @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
  @Operation(
      operationId = "openAccount",
      summary = "Open an account",
      description =
          "Opens an account in one currency with a balance of 0. The account belongs to the"
              + " calling client; other clients cannot see it.")
  @CreatedAt
  @Problems(ShopProblem.INVALID_CURRENCY)
  ResponseEntity<AccountView> open(
      AuthenticatedClient client, @Valid @RequestBody OpenRequest body) {
    Account account = accounts.open(client.id(), body.currency());
    return ResponseEntity.created(URI.create("/v1/accounts/" + account.id()))
        .body(AccountView.of(account));
  }

  @GetMapping("/{id}")
  @Operation(
      operationId = "getAccount",
      summary = "Read an account and its balance",
      description =
          "The balance is the sum of the account's journal, which only ever grows: deposits and"
              + " refunds add, charges subtract.")
  @Problems(ShopProblem.ACCOUNT_NOT_FOUND)
  AccountView get(AuthenticatedClient client, @PathVariable String id) {
    return AccountView.of(accounts.get(client.id(), id));
  }

  @PostMapping(path = "/{id}/deposits", consumes = MediaType.APPLICATION_JSON_VALUE)
  @Operation(
      operationId = "deposit",
      summary = "Pay money into an account",
      description =
          "Adds a deposit row to the account's journal and answers it with the balance after it."
              + " The amount must fit the minor units of the account's currency (ISO 4217: 2 for"
              + " EUR, 0 for JPY, 3 for KWD; 422 `invalid-amount`, nothing written). A retry under"
              + " the same `Idempotency-Key` gets the same row again: the money is paid in once.")
  @Created
  @Problems({
    ShopProblem.ACCOUNT_NOT_FOUND,
    ShopProblem.INVALID_AMOUNT,
    ShopProblem.AMOUNT_OUT_OF_RANGE
  })
  ResponseEntity<DepositView> deposit(
      AuthenticatedClient client,
      @PathVariable String id,
      @Valid @RequestBody DepositRequest body) {
    dev.once.shop.accounts.Operation operation =
        accounts.deposit(client.id(), id, Money.parse(body.amount()));
    return ResponseEntity.status(HttpStatus.CREATED)
        .body(
            new DepositView(
                operation.id(),
                operation.accountId(),
                Money.format(operation.amount()),
                Money.format(operation.balanceAfter())));
  }

  @GetMapping("/{id}/operations")
  @Operation(
      operationId = "listAccountOperations",
      summary = "Page through an account's journal, oldest first",
      description =
          "Each row is a deposit, a charge or a refund; a reversal names the row it reverses."
              + " Pass the page's `next` as `after` to read the next page; `next` is null on the"
              + " last page.")
  @Problems({ShopProblem.INVALID_PARAMETER, ShopProblem.ACCOUNT_NOT_FOUND})
  OperationsView operations(
      AuthenticatedClient client,
      @PathVariable String id,
      @Parameter(
              description = "Page size, 1 to 200 (default 50)",
              schema = @Schema(type = "integer", minimum = "1", maximum = "200", example = "50"))
          @RequestParam(required = false)
          String limit,
      @Parameter(
              description = "The `next` value of the previous page",
              example = "op_Q2xq1c9rR3mYv0aT8s4n6w")
          @RequestParam(required = false)
          String after) {
    AccountService.OperationPage page =
        accounts.operations(client.id(), id, parseLimit(limit), Optional.ofNullable(after));
    return new OperationsView(
        page.items().stream().map(OperationView::of).toList(), page.next().orElse(null));
  }

  private static int parseLimit(String limit) {
    if (limit == null) {
      return DEFAULT_LIMIT;
    }
    int value = LIMIT.matcher(limit).matches() ? Integer.parseInt(limit) : -1;
    if (value < 1 || value > MAX_LIMIT) {
      throw new InvalidRequestException(
          ShopProblem.INVALID_PARAMETER,
          "limit",
          "Parameter 'limit' must be a whole number from 1 to " + MAX_LIMIT + ".");
    }
    return value;
  }

  /** Body of an account opening. */
  @Schema(name = "OpenAccountRequest")
  record OpenRequest(@NotNull @Money.Currency @Schema(example = "EUR") String currency) {}

  /** Body of a deposit. */
  record DepositRequest(@NotNull @Money.Amount @Schema(example = "100.00") String amount) {}

  /** An account on the wire. */
  @Schema(name = "Account")
  record AccountView(
      @Schema(example = "acc_Vb3f0Yb2o7d8r5XxJ1rQ9w") String id,
      @Schema(example = "EUR") String currency,
      @Schema(example = "87.5000") String balance) {
    static AccountView of(Account account) {
      return new AccountView(account.id(), account.currency(), Money.format(account.balance()));
    }
  }

  /** A deposit on the wire. */
  @Schema(name = "Deposit")
  record DepositView(
      @Schema(example = "op_Q2xq1c9rR3mYv0aT8s4n6w", description = "The deposit's journal row")
          String operationId,
      @Schema(example = "acc_Vb3f0Yb2o7d8r5XxJ1rQ9w") String accountId,
      @Schema(example = "100.0000") String amount,
      @Schema(example = "100.0000", description = "The balance after the deposit")
          String balance) {}

  /** A journal row on the wire; {@code reverses} is null for deposits and charges. */
  @Schema(name = "Operation")
  record OperationView(
      @Schema(example = "op_Q2xq1c9rR3mYv0aT8s4n6w") String id,
      @Schema(example = "-12.5000", description = "Signed: negative for a charge") String amount,
      @Schema(
              example = "charge",
              allowableValues = {"deposit", "charge", "refund", "reversal"})
          String kind,
      @Schema(nullable = true, description = "The journal row this one reverses, if any")
          String reverses,
      @Schema(example = "2026-12-01T13:05:44.120Z", format = "date-time") String createdAt) {
    static OperationView of(dev.once.shop.accounts.Operation operation) {
      return new OperationView(
          operation.id(),
          Money.format(operation.amount()),
          operation.kind().wireName(),
          operation.reverses().orElse(null),
          operation.createdAt().toString());
    }
  }

  /** A page of the journal; {@code next} is null on the last page. */
  @Schema(name = "OperationPage")
  record OperationsView(
      List<OperationView> items,
      @Schema(nullable = true, description = "Pass as `after` for the next page") String next) {}
}
