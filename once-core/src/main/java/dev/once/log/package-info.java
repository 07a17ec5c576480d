/**
 * Logging for conditions that every request meets while they last: {@link
 * dev.once.log.ThrottledLog} writes a WARN, without a stack trace, at most once per interval for
 * each condition, and the next line counts the occurrences it left out in between. So a full pool,
 * a restarting database or a flood of unknown API keys costs a line per interval, not a line per
 * request, exactly when the log is needed most. Conditions are kept for the life of the process, so
 * they must come from a small fixed set (SQLSTATEs, names chosen in code), never from request data.
 *
 * <p>Depends on the JDK and SLF4J only; the relay ({@code dev.once.outbox}), the starter's filter
 * and load shedding, and the shop use it.
 */
package dev.once.log;
