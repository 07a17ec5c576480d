package dev.once.shop.stock;

import dev.once.shop.problems.ShopException;
import dev.once.shop.problems.ShopProblem;

/** The client already has a product with this code; nothing was written. */
public final class ProductExistsException extends ShopException {
  private static final long serialVersionUID = 1L;

  ProductExistsException(String sku) {
    super(ShopProblem.PRODUCT_EXISTS, "A product with sku '" + sku + "' already exists.");
  }
}
