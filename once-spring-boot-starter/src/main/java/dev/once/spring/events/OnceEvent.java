package dev.once.spring.events;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a record as the payload of an event: {@link #name()} is its stable logical type (the outbox
 * row's {@code type}, the Kafka header {@code once-type}, what {@link OnceListener} methods are
 * registered for), {@link #version()} the version of its schema.
 *
 * <p>The payload on the wire is the record's JSON as the application's Jackson {@code JsonMapper}
 * writes it. A version above 1 travels as one reserved top-level member, {@code "@version": n};
 * version 1 writes none, so a version 1 payload is exactly the record's JSON and a payload without
 * the member is version 1 (what string publishers always wrote). Bump the version when a change
 * would make an older listener apply an event wrongly; an {@link EventUpcaster} bean lets newer
 * listeners read the older versions still in flight.
 *
 * <p>{@link OnceEvents#publish} refuses an object whose class does not carry this annotation.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface OnceEvent {
  /** The event's stable type, 1 to 200 characters, e.g. {@code order.placed}. */
  String name();

  /** The version of the record's schema, at least 1. */
  int version() default 1;
}
