/**
 * Products and their stock: creation, restocks, and the reservations that the inbox consumers
 * {@code reserve-stock} and {@code release-stock} make and undo for orders. Stock never goes
 * negative, and a reservation is made and released at most once per (order, sku).
 */
package dev.once.shop.stock;
