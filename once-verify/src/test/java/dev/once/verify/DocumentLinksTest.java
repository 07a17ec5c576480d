package dev.once.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of the repository's documents (README.md, the modules' READMEs, docs/*.md)
 * leads somewhere: the file exists, and a {@code #fragment} into a Markdown file names one of its
 * headings, slugged as GitHub slugs them. Text moves between pages; a link left behind fails here.
 */
class DocumentLinksTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*$");
  private static final Pattern FENCE = Pattern.compile("```.*?```", Pattern.DOTALL);

  @Test
  void everyRelativeLinkLeadsToAFileAndAHeading() throws IOException {
    List<Path> documents = documents();
    assertThat(documents).contains(ROOT.resolve("README.md"), ROOT.resolve("docs/README.md"));
    Map<Path, Set<String>> anchors = new HashMap<>();
    List<String> broken = new ArrayList<>();
    for (Path document : documents) {
      String text = FENCE.matcher(Files.readString(document)).replaceAll("");
      Matcher link = LINK.matcher(text);
      while (link.find()) {
        String target = link.group(1);
        if (target.matches("^[a-z]+:.*")) {
          continue; // http:, https:, mailto:
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path path = file.isEmpty() ? document : document.getParent().resolve(file).normalize();
        String where = ROOT.relativize(document) + ": " + target;
        if (!Files.exists(path)) {
          broken.add(where + " (no such file)");
        } else if (hash >= 0 && path.toString().endsWith(".md")) {
          Set<String> headings = anchors.computeIfAbsent(path, DocumentLinksTest::headings);
          if (!headings.contains(target.substring(hash + 1))) {
            broken.add(where + " (no such heading)");
          }
        }
      }
    }
    assertThat(broken).as("links that lead nowhere").isEmpty();
  }

  private static List<Path> documents() throws IOException {
    List<Path> documents = new ArrayList<>();
    try (Stream<Path> top = Files.list(ROOT);
        Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      top.filter(Files::isDirectory)
          .map(module -> module.resolve("README.md"))
          .filter(Files::isRegularFile)
          .forEach(documents::add);
      docs.filter(p -> p.toString().endsWith(".md")).forEach(documents::add);
    }
    documents.add(ROOT.resolve("README.md"));
    return documents.stream().sorted().toList();
  }

  /** The anchors of {@code document}'s headings, as GitHub makes them (repeats get -1, -2, …). */
  private static Set<String> headings(Path document) {
    Set<String> anchors = new HashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    boolean code = false;
    try {
      for (String line : Files.readAllLines(document)) {
        if (line.startsWith("```")) {
          code = !code;
          continue;
        }
        Matcher heading = HEADING.matcher(line);
        if (code || !heading.matches()) {
          continue;
        }
        String slug =
            heading
                .group(1)
                .replaceAll("\\[([^]]*)]\\([^)]*\\)", "$1")
                .strip()
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N}_\\- ]", "")
                .replace(' ', '-');
        int repeat = seen.merge(slug, 1, Integer::sum) - 1;
        anchors.add(repeat == 0 ? slug : slug + "-" + repeat);
      }
    } catch (IOException e) {
      throw new AssertionError("cannot read " + document, e);
    }
    return anchors;
  }
}
