/**
 * A small HTTP/1.1 client for load generation: keep-alive connections on plain sockets, requests
 * written into reused buffers, answers parsed strictly (a malformed answer is an {@link
 * dev.once.verify.http.HttpProtocolException} and closes its connection). Not thread-safe: one
 * connection per worker.
 */
package dev.once.verify.http;
