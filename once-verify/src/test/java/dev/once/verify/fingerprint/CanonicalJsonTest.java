package dev.once.verify.fingerprint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.once.json.JsonCanonicalizer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Jackson reads Once's canonical form back into a tree whose leaves keep their canonical text. */
class CanonicalJsonTest {
  @Test
  void leavesKeepTheirCanonicalSpelling() {
    String canonical =
        JsonCanonicalizer.create()
            .canonicalize(
                "{\"b\":[1.0,10e-1,1e21,-0.5,true,null],\"a\\u0001\":\"x\\u001f\\\"\\n\\u00e9\"}");
    Object tree = CanonicalJson.parse(canonical);

    assertThat(tree).isInstanceOf(Map.class);
    Map<?, ?> members = (Map<?, ?>) tree;
    assertThat(members.keySet().stream().map(String::valueOf)).containsExactly("a\u0001", "b");
    assertThat(members.get("a\u0001")).isEqualTo(new CanonicalJson.Leaf("\"x\\u001f\\\"\\né\""));
    assertThat((List<?>) members.get("b"))
        .extracting(leaf -> ((CanonicalJson.Leaf) leaf).text())
        .containsExactly("1", "1", "1e+21", "-0.5", "true", "null");
    assertThat(canonical).contains("\"x\\u001f\\\"\\né\"").contains("[1,1,1e+21,-0.5,true,null]");
  }

  @Test
  void deepNestingWithinOncesLimitReads() {
    String deep = "[".repeat(5_000) + "]".repeat(5_000);
    Object tree = CanonicalJson.parse(deep);
    int depth = 0;
    while (tree instanceof List<?> list && !list.isEmpty()) {
      tree = list.get(0);
      depth++;
    }
    assertThat(depth).isEqualTo(4_999);
  }

  @Test
  void contentAfterTheValueIsRefused() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> CanonicalJson.parse("{} {}"))
        .withMessageContaining("content after the value");
  }
}
