/**
 * The effect probe every assertion of the kit reads. A package of its own, used by every assertion
 * package and using none: {@code dev.once.test.OnceAssertions} uses the assertion packages, so a
 * probe in {@code dev.once.test} would make each of them a package cycle with it.
 */
package dev.once.test.effect;
