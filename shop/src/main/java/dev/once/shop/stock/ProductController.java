package dev.once.shop.stock;

import dev.once.shop.accounts.Money;
import dev.once.shop.clients.AuthenticatedClient;
import dev.once.shop.openapi.CreatedAt;
import dev.once.shop.openapi.OpenApiConfiguration;
import dev.once.shop.openapi.Problems;
import dev.once.shop.persistence.Text;
import dev.once.shop.problems.ShopProblem;
import dev.once.spring.web.Idempotent;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.math.BigInteger;
import java.net.URI;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /v1/products}: a client's products and their stock. Every POST needs an Idempotency-Key
 * ({@link Idempotent}).
 */
@Idempotent
@RestController
@RequestMapping(path = "/v1/products", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "products", description = "Products and their stock")
@SecurityRequirement(name = OpenApiConfiguration.API_KEY_SCHEME)
class ProductController {
  /** The most units a product starts with or a restock adds. */
  static final long MAX_UNITS = 1_000_000_000L;

  static final int MAX_NAME_LENGTH = 200;

  private final StockService stock;

  ProductController(StockService stock) {
    this.stock = stock;
  }

  @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
  @Operation(
      operationId = "createProduct",
      summary = "Create a product with its initial stock",
      description =
          "The sku names the product in the client's catalogue and in its address; it cannot be"
              + " used twice (409 `product-exists`). `price` is the unit price that orders placed"
              + " from now on will charge; it must fit the currency's minor units (ISO 4217: 2 for"
              + " EUR, 0 for JPY, 3 for KWD; 422 `invalid-amount`).")
  @CreatedAt
  @Problems({ShopProblem.INVALID_AMOUNT, ShopProblem.INVALID_CURRENCY, ShopProblem.PRODUCT_EXISTS})
  ResponseEntity<ProductView> create(
      AuthenticatedClient client, @Valid @RequestBody ProductRequest body) {
    Product product =
        stock.create(
            client.id(),
            body.sku(),
            body.name(),
            Money.parse(body.price(), body.currency(), "price"),
            body.currency(),
            body.stock().longValueExact());
    return ResponseEntity.created(URI.create("/v1/products/" + product.sku()))
        .body(ProductView.of(product));
  }

  @GetMapping("/{sku}")
  @Operation(
      operationId = "getProduct",
      summary = "Read a product; stock is the number of units available",
      description =
          "`stock` is the number of units available to new orders; `reserved` the units that"
              + " orders hold and have not released.")
  @Problems(ShopProblem.PRODUCT_NOT_FOUND)
  ProductView get(AuthenticatedClient client, @PathVariable String sku) {
    return ProductView.of(stock.get(client.id(), sku));
  }

  @PostMapping(path = "/{sku}/restock", consumes = MediaType.APPLICATION_JSON_VALUE)
  @Operation(
      operationId = "restockProduct",
      summary = "Add units to a product's available stock",
      description =
          "Adds `quantity` units to the available stock and answers the product. A retry under"
              + " the same `Idempotency-Key` adds them once.")
  @Problems(ShopProblem.PRODUCT_NOT_FOUND)
  ProductView restock(
      AuthenticatedClient client,
      @PathVariable String sku,
      @Valid @RequestBody RestockRequest body) {
    return ProductView.of(stock.restock(client.id(), sku, body.quantity().longValueExact()));
  }

  /** Body of a new product; {@code stock} is a JSON integer. */
  @Schema(name = "ProductRequest")
  record ProductRequest(
      @NotNull @Sku.Code @Schema(example = "TEA-GREEN-100") String sku,
      @NotNull @Text(max = MAX_NAME_LENGTH) @Schema(example = "Green tea, 100 g") String name,
      @NotNull @Money.Amount @Schema(example = "4.20") String price,
      @NotNull @Money.Currency @Schema(example = "EUR") String currency,
      @NotNull @Min(0) @Max(MAX_UNITS) @Schema(example = "25") BigInteger stock) {}

  /** Body of a restock; {@code quantity} is a JSON integer. */
  @Schema(name = "RestockRequest")
  record RestockRequest(
      @NotNull @Min(1) @Max(MAX_UNITS) @Schema(example = "10") BigInteger quantity) {}

  /** A product on the wire: {@code stock} units available, {@code reserved} held by orders. */
  @Schema(name = "Product")
  record ProductView(
      @Schema(example = "TEA-GREEN-100") String sku,
      @Schema(example = "Green tea, 100 g") String name,
      @Schema(example = "4.2000", description = "The unit price") String price,
      @Schema(example = "EUR") String currency,
      @Schema(example = "23", description = "Units available to new orders") long stock,
      @Schema(example = "2", description = "Units that orders hold") long reserved) {
    static ProductView of(Product product) {
      return new ProductView(
          product.sku(),
          product.name(),
          Money.format(product.price()),
          product.currency(),
          product.available(),
          product.reserved());
    }
  }
}
