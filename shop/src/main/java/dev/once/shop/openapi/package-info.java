/**
 * The OpenAPI description of the shop's API, kept next to the code it describes: the annotations
 * the controllers carry ({@link dev.once.shop.openapi.Created}, {@link
 * dev.once.shop.openapi.CreatedAt}, {@link dev.once.shop.openapi.Problems}, {@link
 * dev.once.shop.openapi.SchemaPattern}) and the configuration that adds what they cannot show. It
 * knows the problem vocabulary and the constraint annotations' meta-annotations, never a
 * capability's classes, so that each capability can use it.
 */
package dev.once.shop.openapi;
