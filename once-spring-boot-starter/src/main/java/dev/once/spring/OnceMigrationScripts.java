package dev.once.spring;

import dev.once.postgres.OnceSchema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.flywaydb.core.api.Location;
import org.flywaydb.core.api.ResourceProvider;
import org.flywaydb.core.api.resource.LoadableResource;
import org.flywaydb.core.internal.resource.classpath.ClassPathResource;

/**
 * Once's schema scripts for Flyway, by name ({@link OnceSchema#SCRIPTS} and the callback {@value
 * #CALLBACK}) instead of by a scan of {@value OnceSchema#LOCATION}: a native image has no class
 * path to list, only the resources registered for it ({@link OnceRuntimeHints}), so Once's
 * migration reads them the same way on the JVM and in a native image. Spring Boot does the same for
 * the application's own Flyway, in a native image only.
 */
final class OnceMigrationScripts implements ResourceProvider {
  /** The callback that grants the application's role its rights after every migration run. */
  static final String CALLBACK = "afterMigrate.sql";

  private final List<LoadableResource> resources;

  OnceMigrationScripts(ClassLoader classLoader) {
    Location location = new Location(OnceSchema.LOCATION);
    List<String> names = new ArrayList<>(OnceSchema.SCRIPTS);
    names.add(CALLBACK);
    this.resources =
        names.stream()
            .map(
                name ->
                    (LoadableResource)
                        new ClassPathResource(
                            location,
                            location.getRootPath() + "/" + name,
                            classLoader,
                            StandardCharsets.UTF_8))
            .toList();
  }

  /** The scripts' file names, in order. */
  List<String> names() {
    return resources.stream().map(LoadableResource::getFilename).toList();
  }

  @Override
  public LoadableResource getResource(String name) {
    return resources.stream()
        .filter(r -> r.getRelativePath().equals(name) || r.getFilename().equals(name))
        .findFirst()
        .orElse(null);
  }

  @Override
  public Collection<LoadableResource> getResources(String prefix, String[] suffixes) {
    return resources.stream()
        .filter(
            r ->
                r.getFilename().startsWith(prefix)
                    && List.of(suffixes).stream().anyMatch(r.getFilename()::endsWith))
        .toList();
  }
}
