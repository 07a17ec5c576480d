/**
 * Spring MVC and Tomcat around the controllers: the JSON mapper and the strict reading of request
 * bodies, and the translation of every failure (a handler's exception, Spring MVC's and Tomcat's
 * own refusals, the container's error path) into the shop's RFC 9457 problems. It depends on the
 * problem vocabulary ({@code dev.once.shop.problems}) and on the capabilities' classification of
 * their failures ({@code dev.once.shop.persistence}); no capability depends on it.
 */
package dev.once.shop.web;
