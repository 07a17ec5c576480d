/**
 * The shop's development defaults, wired apart from the shop itself: the in-process PSP simulator
 * that stands in for the payment provider when {@code shop.provider.url} is not set. (The other
 * default, the embedded PostgreSQL used when no datasource URL is set, comes from the {@code
 * once-embedded-postgres} module on the class path.) Each default steps aside as soon as its
 * setting is given, and production code never depends on this package: it only supplies beans that
 * other packages declare, such as {@link dev.once.shop.provider.ProviderEndpoint}.
 */
package dev.once.shop.development;
