/**
 * The shop's problem vocabulary, below the capabilities and the web layer alike: every problem it
 * answers with ({@link dev.once.shop.problems.ShopProblem}: a stable slug, status and title), the
 * exceptions a capability raises on purpose ({@link dev.once.shop.problems.ShopException}, {@link
 * dev.once.shop.problems.InvalidRequestException}, {@link
 * dev.once.shop.problems.NotFoundException}), their rendering as RFC 9457 problems ({@link
 * dev.once.shop.problems.ProblemResponses}) and the answer when the database cannot serve a request
 * for a while ({@link dev.once.shop.problems.DatabaseUnavailable}), which the authentication
 * filters write themselves. Uses Spring, Once and the JDK only, never a capability or {@code
 * dev.once.shop.web}, so that every package of the shop can use it.
 */
package dev.once.shop.problems;
