/**
 * RFC 8785 JSON Canonicalization Scheme (JCS).
 *
 * <p>{@link dev.once.json.JsonCanonicalizer} turns any strict RFC 8259 JSON text into its unique
 * canonical UTF-8 form, so that two requests that differ only in whitespace, member order, escape
 * spelling or number spelling produce identical bytes (and therefore identical fingerprints).
 * {@link dev.once.json.EcmaScriptNumbers} exposes the ECMAScript number serialisation that RFC 8785
 * prescribes. The package depends on the JDK only.
 */
package dev.once.json;
