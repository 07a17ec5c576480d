package dev.once.shop.clients;

import dev.once.shop.web.OpenApiConfiguration;
import dev.once.shop.web.Text;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
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
@Tag(name = "admin", description = "API clients and their keys, and the outbox (admin token)")
@SecurityRequirement(name = OpenApiConfiguration.ADMIN_SCHEME)
class ClientController {
  private static final int MAX_NAME_LENGTH = 200;

  private final ClientService clients;

  ClientController(ClientService clients) {
    this.clients = clients;
  }

  @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
  @Operation(
      summary = "Create a client and its API key",
      description = "The key is in this answer only; the shop keeps just its SHA-256 hash.")
  ResponseEntity<CreatedClient> create(@Valid @RequestBody CreateClientRequest body) {
    ClientService.NewClient created = clients.create(body.name());
    return ResponseEntity.status(HttpStatus.CREATED)
        .body(new CreatedClient(created.client().id(), created.client().name(), created.apiKey()));
  }

  @PostMapping("/{id}/disable")
  @Operation(summary = "Disable a client: its API keys fail from the next request on")
  ClientView disable(@PathVariable String id) {
    Client client = clients.disable(id);
    return new ClientView(
        client.id(), client.name(), client.disabledAt().map(Object::toString).orElse(null));
  }

  /** Body of a create. */
  record CreateClientRequest(
      @NotNull @Text(max = MAX_NAME_LENGTH) @Schema(example = "Acme Ltd") String name) {}

  /** A created client, with the API key shown this once. */
  record CreatedClient(String id, String name, String apiKey) {}

  /** A client without its key; {@code disabledAt} is null while it is active. */
  record ClientView(String id, String name, String disabledAt) {}
}
