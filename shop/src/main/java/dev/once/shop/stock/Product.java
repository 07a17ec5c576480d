package dev.once.shop.stock;

import java.math.BigDecimal;

/**
 * A client's product and its stock.
 *
 * @param sku the client's product code, unique per client
 * @param name display name
 * @param price unit price, positive, in {@code currency}
 * @param currency ISO 4217 code
 * @param available units that can still be reserved, never negative
 * @param reserved units held by orders, never negative
 */
public record Product(
    String sku, String name, BigDecimal price, String currency, long available, long reserved) {}
