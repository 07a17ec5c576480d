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
 * <p>{@link dev.once.json.EcmaScriptNumbers} exposes the ECMAScript double serialisation that RFC
 * 8785 prescribes. The package depends on the JDK only.
 */
package dev.once.json;
