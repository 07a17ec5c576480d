package dev.once.shop.clients;

import dev.once.shop.openapi.Created;
import dev.once.shop.openapi.OpenApiConfiguration;
import dev.once.shop.openapi.Problems;
import dev.once.shop.persistence.Text;
import dev.once.shop.problems.ShopProblem;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The admin API: create API clients and disable them. Guarded by {@link AdminAuthenticationFilter};
 * not idempotent by key (an operator retrying a create gets a second client, which is harmless and
 * visible).
 */
@RestController
@RequestMapping(path = "/admin/v1/clients", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "clients", description = "API clients and their keys (admin token)")
@SecurityRequirement(name = OpenApiConfiguration.ADMIN_SCHEME)
class ClientController {
  private static final Logger log = LoggerFactory.getLogger(ClientController.class);
  private static final int MAX_NAME_LENGTH = 200;

  private final ClientService clients;

  ClientController(ClientService clients) {
    this.clients = clients;
  }

  @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
  @Operation(
      operationId = "createClient",
      summary = "Create a client and its API key",
      description =
          "The key is in this answer only (sent with `Cache-Control: no-store`); the shop keeps"
              + " just its SHA-256 hash. Not idempotent"
              + " by key: a retried create makes a second client, which is harmless and visible.")
  @Created
  ResponseEntity<CreatedClient> create(
      @Valid @RequestBody CreateClientRequest body, HttpServletRequest request) {
    ClientService.NewClient created = clients.create(body.name());
    log.info(
        "Client {} created by an operator (admin token) from {}",
        created.client().id(),
        request.getRemoteAddr());
    // The key is in this answer only: no cache, proxy or browser history may keep a copy.
    return ResponseEntity.status(HttpStatus.CREATED)
        .cacheControl(CacheControl.noStore())
        .body(new CreatedClient(created.client().id(), created.client().name(), created.apiKey()));
  }

  @PostMapping("/{id}/disable")
  @Operation(
      operationId = "disableClient",
      summary = "Disable a client: its API keys fail from the next request on",
      description =
          "Its requests get 401 from then on, even replays of keys it completed before. Disabling"
              + " a disabled client changes nothing and answers it again.")
  @Problems(ShopProblem.CLIENT_NOT_FOUND)
  ClientView disable(@PathVariable String id, HttpServletRequest request) {
    Client client = clients.disable(id);
    log.info(
        "Client {} disabled by an operator (admin token) from {}",
        client.id(),
        request.getRemoteAddr());
    return new ClientView(
        client.id(), client.name(), client.disabledAt().map(Object::toString).orElse(null));
  }

  /** Body of a create. */
  record CreateClientRequest(
      @NotNull @Text(max = MAX_NAME_LENGTH) @Schema(example = "Acme Ltd") String name) {}

  /** A created client, with the API key shown this once. */
  @Schema(name = "CreatedClient")
  record CreatedClient(
      @Schema(example = "cli_Jf6yH2kL9pQ4wE7rT1uI3o") String id,
      @Schema(example = "Acme Ltd") String name,
      @Schema(
              example = "shop_sk_6Vq0m1Rk9yQdPz3WcB7nTfXh2LsJ5aUe8GiKoMpY4rE",
              description = "The API key, shown this once")
          String apiKey) {}

  /** A client without its key; {@code disabledAt} is null while it is active. */
  @Schema(name = "Client")
  record ClientView(
      @Schema(example = "cli_Jf6yH2kL9pQ4wE7rT1uI3o") String id,
      @Schema(example = "Acme Ltd") String name,
      @Schema(example = "2026-12-01T13:05:44.120Z", format = "date-time", nullable = true)
          String disabledAt) {}
}
