/**
 * <strong>Not part of the kit's API</strong>: what the assertions of more than one package share
 * (reading the effect probe, collecting violations into one failure). Any type here may change in
 * any release; tests must not use them. Depends on the JDK alone, so every package may use it.
 */
package dev.once.test.internal;
