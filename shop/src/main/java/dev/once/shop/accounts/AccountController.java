package dev.once.shop.accounts;

import dev.once.shop.clients.AuthenticatedClient;
import dev.once.shop.web.InvalidRequestException;
import dev.once.shop.web.OpenApiConfiguration;
import dev.once.shop.web.ShopProblem;
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

/** {@code /v1/accounts}: open accounts, read them, pay in, and page through their journal. */
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
  @Operation(summary = "Open an account")
  ResponseEntity<AccountView> open(
      AuthenticatedClient client, @Valid @RequestBody OpenRequest body) {
    Account account = accounts.open(client.id(), body.currency());
    return ResponseEntity.created(URI.create("/v1/accounts/" + account.id()))
        .body(AccountView.of(account));
  }

  @GetMapping("/{id}")
  @Operation(summary = "Read an account and its balance")
  AccountView get(AuthenticatedClient client, @PathVariable String id) {
    return AccountView.of(accounts.get(client.id(), id));
  }

  @PostMapping(path = "/{id}/deposits", consumes = MediaType.APPLICATION_JSON_VALUE)
  @Operation(summary = "Pay money into an account")
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
  @Operation(summary = "Page through an account's journal, oldest first")
  OperationsView operations(
      AuthenticatedClient client,
      @PathVariable String id,
      @Parameter(description = "Page size, 1 to 200 (default 50)") @RequestParam(required = false)
          String limit,
      @Parameter(description = "The 'next' value of the previous page")
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
  record OpenRequest(@NotNull @Money.Currency @Schema(example = "EUR") String currency) {}

  /** Body of a deposit. */
  record DepositRequest(@NotNull @Money.Amount @Schema(example = "100.00") String amount) {}

  /** An account on the wire. */
  record AccountView(String id, String currency, String balance) {
    static AccountView of(Account account) {
      return new AccountView(account.id(), account.currency(), Money.format(account.balance()));
    }
  }

  /** A deposit on the wire. */
  record DepositView(String operationId, String accountId, String amount, String balance) {}

  /** A journal row on the wire; {@code reverses} is null for deposits and charges. */
  record OperationView(String id, String amount, String kind, String reverses, String createdAt) {
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
  record OperationsView(List<OperationView> items, String next) {}
}
