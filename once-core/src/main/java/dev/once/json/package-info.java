/**
 * JSON canonicalization after RFC 8785 (JCS), with numbers compared by exact value.
 *
 * <p>{@link dev.once.json.JsonCanonicalizer} turns any strict RFC 8259 JSON text into a unique
 * canonical UTF-8 form, so that two requests that differ only in whitespace, member order, escape
 * spelling or number spelling produce identical bytes (and therefore identical fingerprints).
 * Strings, objects and layout follow RFC 8785. Numbers follow one of two {@link
 * dev.once.json.JsonCanonicalizer.NumberMode modes}:
 *
 * <ul>
 *   <li>{@code EXACT} (the default, used for fingerprints) keeps each number's exact decimal value
 *       and lays it out as ECMAScript lays out a double's digits. It departs from RFC 8785, which
 *       serialises numbers as IEEE-754 doubles, only where a literal is not the shortest form of a
 *       double: {@code 9007199254740993} and {@code 333333333.33333329} keep their digits, and
 *       {@code 1e400} and {@code 1e-400} are accepted and kept. Two documents whose numbers differ
 *       in value never share a canonical form.
 *   <li>{@code RFC_8785} is RFC 8785 byte for byte: numbers become doubles.
 * </ul>
 *
 * <h2>Why a parser and a number formatter of its own</h2>
 *
 * <p>The fingerprint of a request is only as trustworthy as the parser that reads its body, so the
 * package writes both instead of using a JSON library:
 *
 * <ul>
 *   <li><b>No dependencies in the core.</b> once-core depends on the JDK, JDBC and SLF4J only, so
 *       it never pins or conflicts with the JSON library (or its version) that an application uses.
 *       The package itself depends on the JDK only.
 *   <li><b>Bounded depth on hostile input.</b> Nesting is limited ({@link
 *       dev.once.json.JsonCanonicalizer#DEFAULT_MAX_DEPTH} by default) and tracked on an explicit
 *       stack, so no body can exhaust the Java stack; time and memory are linear in the input,
 *       numbers with huge exponents included.
 *   <li><b>Strict UTF-8.</b> Invalid, overlong and surrogate sequences are rejected rather than
 *       decoded to U+FFFD, as {@code new String(bytes, UTF_8)} would: otherwise two different
 *       bodies could share one canonical form and replay each other's answer.
 *   <li><b>Shortest numbers.</b> RFC 8785 writes a double as ECMAScript does, with the shortest
 *       digits that read back as the same double. Java 17's {@link Double#toString(double)} does
 *       not always give them ({@code 2e23} prints as {@code 1.9999999999999998E23}; fixed only in
 *       Java 19), so the package-private {@code EcmaScriptNumbers} implements the ECMAScript
 *       serialisation.
 * </ul>
 */
package dev.once.json;
