/**
 * The shop's broken modes, for {@code once-verify}'s self-test only: each switches one of Once's
 * guarantees off on purpose, so that the chaos run can be shown to catch it. Test code: these
 * classes live in the shop's test sources and are packaged apart, in {@code
 * shop/target/shop-broken-modes.jar}; a shop started without that jar on its class path has none of
 * them. They break the shop by wrapping its beans, so the production code carries no hook for them.
 */
package dev.once.shop.broken;
