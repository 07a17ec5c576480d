/**
 * Secrets the shop generates for itself (the embedded database's passwords, the admin token) and
 * the owner-only files and folders that keep them, the embedded database's data and its binaries
 * away from other local users: {@link dev.once.shop.secrets.SecretFile}, {@link
 * dev.once.shop.secrets.OwnerOnly}.
 */
package dev.once.shop.secrets;
