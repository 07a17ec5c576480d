/**
 * The events the orders and stock modules exchange through the outbox and the inbox: their type
 * names and payloads, owned by neither module so that neither depends on the other for them.
 */
package dev.once.shop.events;
