/**
 * Secrets generated for a local service (the embedded database's passwords, the shop's admin token)
 * and the owner-only files and folders that keep them, the embedded database's data and its
 * binaries away from other local users: {@link dev.once.embedded.secrets.SecretFile}, {@link
 * dev.once.embedded.secrets.OwnerOnly}. No Spring; needs a POSIX file system.
 */
package dev.once.embedded.secrets;
