/**
 * Endpoint assertions: {@link dev.once.test.http.EndpointAssert} proves that an HTTP endpoint keeps
 * Once's idempotency contract (replays, concurrent duplicates, key reuse, missing key, failures and
 * lost answers), through a {@link dev.once.test.http.HttpTarget}: a real server, MockMvc,
 * RestClient or WebTestClient.
 */
package dev.once.test.http;
