package dev.once.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import dev.once.testing.PackageCycles;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * The starter's public types are the ones applications touch (issue 25, item 4): a type that turns
 * public by accident, or a type users need that turns package-private, fails here. The {@code
 * *AutoConfiguration} classes are public as Spring Boot's own are: applications name them in {@code
 * exclude}, in {@code @ImportAutoConfiguration} and in their tests' context runners (issue 41, item
 * 2); their {@code @Bean} methods stay package-private. {@code dev.once.spring.internal} is public
 * only because Java cannot share a type between packages otherwise, and says it is not API.
 */
class PublicSurfaceTest {
  private static final String INTERNAL = "dev.once.spring.internal";

  @Test
  void onlyTheTypesApplicationsTouchArePublic() {
    List<String> outsideInternal =
        publicTopLevelTypes().stream().filter(name -> !name.startsWith(INTERNAL + ".")).toList();

    assertThat(outsideInternal)
        .containsExactly(
            "dev.once.spring.ApplicationRole",
            "dev.once.spring.OnceAutoConfiguration",
            "dev.once.spring.OnceProperties",
            "dev.once.spring.OnceSchemaMigration",
            "dev.once.spring.actuate.OnceActuateAutoConfiguration",
            "dev.once.spring.actuate.OnceEndpoint",
            "dev.once.spring.client.OnceRetryInterceptor",
            "dev.once.spring.events.EventMetadata",
            "dev.once.spring.events.EventPayloadException",
            "dev.once.spring.events.EventUpcaster",
            "dev.once.spring.events.EventVersionException",
            "dev.once.spring.events.OnceEvent",
            "dev.once.spring.events.OnceEvents",
            "dev.once.spring.events.OnceEventsAutoConfiguration",
            "dev.once.spring.events.OnceListener",
            "dev.once.spring.events.PublishedEventTypes",
            "dev.once.spring.inbox.InboxDuplicates",
            "dev.once.spring.inbox.OnceInboxAutoConfiguration",
            "dev.once.spring.metrics.IdempotencyMetrics",
            "dev.once.spring.metrics.OnceMetricsAutoConfiguration",
            "dev.once.spring.metrics.OnceRelayMetricsAutoConfiguration",
            "dev.once.spring.outbox.OnceOutboxAutoConfiguration",
            "dev.once.spring.outbox.OnceRelayAutoConfiguration",
            "dev.once.spring.outbox.OutboxHandler",
            "dev.once.spring.outbox.OutboxLoadShedding",
            "dev.once.spring.outbox.TransactionalOutbox",
            "dev.once.spring.tracing.OnceTracingAutoConfiguration",
            "dev.once.spring.web.ClientCaps",
            "dev.once.spring.web.IdempotencyClientResolver",
            "dev.once.spring.web.Idempotent",
            "dev.once.spring.web.IdempotentHandlers",
            "dev.once.spring.web.OnceProblem",
            "dev.once.spring.web.OnceWebAutoConfiguration");
  }

  @Test
  void theInternalPackageHoldsOnlyWhatPackagesShare() {
    assertThat(publicTopLevelTypes().stream().filter(name -> name.startsWith(INTERNAL + ".")))
        .containsExactly(
            "dev.once.spring.internal.Bounds",
            "dev.once.spring.internal.CrossChecked",
            "dev.once.spring.internal.DataSizeRange",
            "dev.once.spring.internal.DecimalRange",
            "dev.once.spring.internal.DurationRange",
            "dev.once.spring.internal.EventsPublished",
            "dev.once.spring.internal.IntRange",
            "dev.once.spring.internal.OnceThreads",
            "dev.once.spring.internal.OnceTracing",
            "dev.once.spring.internal.PeriodicTask",
            "dev.once.spring.internal.SameDataSource",
            "dev.once.spring.internal.ThreadMark");
  }

  private static List<String> publicTopLevelTypes() {
    return StreamSupport.stream(
            PackageCycles.mainClassesOf(OnceAutoConfiguration.class).spliterator(), false)
        .filter(JavaClass::isTopLevelClass)
        .filter(type -> type.getModifiers().contains(JavaModifier.PUBLIC))
        .map(JavaClass::getName)
        .filter(name -> !name.endsWith(".package-info"))
        .sorted()
        .toList();
  }
}
