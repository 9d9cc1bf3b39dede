# install_java_maven: checks the sources and Javadoc jars of the Maven repository installed
# under PREFIX, then builds and runs, offline, the Maven project docs/installing.md documents:
# its pom.xml and .mvn/maven.config blocks (the repository's URL pointing at PREFIX) and the
# README's Quickstart.java, with `mvn -o package exec:java` as documented and an empty local
# repository (-Dmaven.repo.local in WORK_DIR); Maven's plugins come from Debian's
# /usr/share/maven-repo as the pom says. Then a version range resolves through the installed
# maven-metadata.xml. Skipped when the plugins cannot be resolved (a machine without them).
# Input: MVN, PREFIX, MAVEN_DIR, VERSION, DOCS (docs/installing.md), README, WORK_DIR.
include("${CMAKE_CURRENT_LIST_DIR}/markdown_block.cmake")
file(REMOVE_RECURSE "${WORK_DIR}")
set(repository "${PREFIX}/${MAVEN_DIR}")

# The sources and Javadoc jars hold what an IDE looks for (cmake -E tar reads zip files).
set(version_dir "${repository}/org/addbo/addbo/${VERSION}")
foreach(pair "sources=org/addbo/Optimizer.java" "sources=org/addbo/NativeLoader.java"
             "javadoc=org/addbo/Optimizer.html" "javadoc=org/addbo/AddboException.Status.html")
  string(REPLACE "=" ";" pair "${pair}")
  list(GET pair 0 classifier)
  list(GET pair 1 entry)
  set(archive "${version_dir}/addbo-${VERSION}-${classifier}.jar")
  if(classifier STREQUAL "javadoc" AND NOT EXISTS "${archive}")
    continue()  # javadoc was not found beside javac: no Javadoc jar
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" -E tar tf "${archive}"
    RESULT_VARIABLE status OUTPUT_VARIABLE listing ERROR_VARIABLE listing)
  string(FIND "${listing}" "${entry}" found)
  if(NOT status EQUAL 0 OR found EQUAL -1)
    message(FATAL_ERROR "${archive} lacks ${entry} (${status}):\n${listing}")
  endif()
endforeach()
# The documented project, at PREFIX instead of /opt/addbo.
set(project "${WORK_DIR}/project")
addbo_markdown_block("${DOCS}" "## Java from Maven or Gradle" "```xml pom.xml" pom)
addbo_markdown_block("${DOCS}" "## Java from Maven or Gradle" "```text .mvn/maven.config" config)
addbo_markdown_block("${README}" "### Java\n" "```java" quickstart)
string(REPLACE "file:///opt/addbo/share/maven-repository" "file://${repository}" pom "${pom}")
file(WRITE "${project}/pom.xml" "${pom}")
file(WRITE "${project}/.mvn/maven.config" "${config}")
file(WRITE "${project}/src/main/java/Quickstart.java" "${quickstart}")

function(run_maven)
  execute_process(
    COMMAND "${MVN}" -o -B "-Dmaven.repo.local=${WORK_DIR}/local-repository" ${ARGN}
    WORKING_DIRECTORY "${project}" RESULT_VARIABLE status OUTPUT_VARIABLE output
    ERROR_VARIABLE output)
  if(NOT status EQUAL 0)
    if(output MATCHES "PluginResolutionException" AND NOT output MATCHES "org\\.addbo")
      # ctest reports the test as skipped on this message (SKIP_REGULAR_EXPRESSION).
      message(FATAL_ERROR "ADDBO_SKIP: Maven cannot resolve its plugins offline here (Debian: "
        "libmaven-resources-plugin-java libmaven-compiler-plugin-java libmaven-jar-plugin-java "
        "libsurefire-java libexec-maven-plugin-java junit5)\n${output}")
    endif()
    message(FATAL_ERROR "mvn ${ARGN} failed (${status}):\n${output}")
  endif()
  set(output "${output}" PARENT_SCOPE)
endfunction()

# As documented: the jar is built, and the program runs with the jar Maven fetched (which
# loads its own native libraries: no java.library.path, no LD_LIBRARY_PATH).
set(ENV{LD_LIBRARY_PATH} "")
run_maven(package exec:java)
message(STATUS "mvn -o package exec:java:\n${output}")
addbo_quickstart_result("${README}" expected)
if(NOT output MATCHES "${expected}")
  message(FATAL_ERROR "the documented project did not print the quickstart's result")
endif()
if(NOT EXISTS "${project}/target/quickstart-1.0.jar")
  message(FATAL_ERROR "mvn package wrote no target/quickstart-1.0.jar")
endif()
foreach(file "addbo-${VERSION}.jar" "addbo-${VERSION}.pom")
  if(NOT EXISTS "${WORK_DIR}/local-repository/org/addbo/addbo/${VERSION}/${file}")
    message(FATAL_ERROR "Maven did not fetch ${file} from the installed repository")
  endif()
endforeach()

# A version range: Maven reads the installed maven-metadata.xml (and checks its checksums).
string(REPLACE "<version>${VERSION}</version>" "<version>[0.1,1.0)</version>" ranged "${pom}")
file(WRITE "${project}/pom.xml" "${ranged}")
run_maven(compile)
message(STATUS "the range [0.1,1.0) resolves through maven-metadata.xml")
