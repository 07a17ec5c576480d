# Shared by the bench scripts whose benchmark is a main class of the shop's tests (it starts the
# shop in its own JVM): builds the test classes and their class path, then runs the class. Source it
# from the repository root (after `cd "$(dirname "$0")/.."`); it sets no shell options of its own.
#
#   run_test_main CLASS [ARGS...]   exec java -Xmx1g $JAVA_OPTS -cp <shop's test class path> CLASS ARGS

run_test_main() {
  local main=$1
  shift
  ./mvnw -q -pl shop -am test-compile dependency:build-classpath \
    -Dmdep.outputFile=target/bench-classpath.txt -Dmdep.includeScope=test
  local cp
  cp=shop/target/test-classes:shop/target/classes:$(cat shop/target/bench-classpath.txt)
  # shellcheck disable=SC2086 # JAVA_OPTS holds several options on purpose
  exec java -Xmx1g ${JAVA_OPTS:-} -cp "$cp" "$main" "$@"
}
