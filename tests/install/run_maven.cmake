# install_java_maven: checks the sources and Javadoc jars of the Maven repository installed
# under PREFIX, then builds tests/install/java-maven (a Maven project depending on
# org.addbo:addbo) offline against the Maven repository installed under PREFIX, then runs it
# with the jar Maven resolved and nothing else: the jar loads its own native libraries.
# Maven runs offline (-o) with an empty local repository (-Dmaven.repo.local in WORK_DIR); its
# plugins come from Debian's packaged Maven repository /usr/share/maven-repo (packages
# libmaven-resources-plugin-java, libmaven-compiler-plugin-java, junit5), read offline as a
# file repository (-Daether.offline.protocols=file); addbo from file://PREFIX/MAVEN_DIR.
# Skipped when those plugins cannot be resolved, i.e. on a machine without them.
# Input: MVN, JAVA, PREFIX, MAVEN_DIR, VERSION, SOURCE_DIR (the project), WORK_DIR.
file(REMOVE_RECURSE "${WORK_DIR}")
file(COPY "${SOURCE_DIR}/" DESTINATION "${WORK_DIR}/project")
set(plugins "file:///usr/share/maven-repo")
file(WRITE "${WORK_DIR}/settings.xml" "<settings>
  <profiles>
    <profile>
      <id>debian-plugins</id>
      <pluginRepositories>
        <pluginRepository><id>debian</id><url>${plugins}</url></pluginRepository>
      </pluginRepositories>
    </profile>
  </profiles>
  <activeProfiles><activeProfile>debian-plugins</activeProfile></activeProfiles>
</settings>
")
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
execute_process(
  COMMAND "${MVN}" -o -B -s "${WORK_DIR}/settings.xml" -Daether.offline.protocols=file
          "-Dmaven.repo.local=${WORK_DIR}/local-repository"
          "-Daddbo.repository=file://${repository}" "-Daddbo.version=${VERSION}" compile
  WORKING_DIRECTORY "${WORK_DIR}/project"
  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT status EQUAL 0)
  if(output MATCHES "PluginResolutionException" AND NOT output MATCHES "org\\.addbo")
    # ctest reports the test as skipped on this message (SKIP_REGULAR_EXPRESSION).
    message(FATAL_ERROR "ADDBO_SKIP: Maven cannot resolve its plugins offline here (Debian: "
      "libmaven-resources-plugin-java libmaven-compiler-plugin-java junit5)\n${output}")
  endif()
  message(FATAL_ERROR "mvn compile failed (${status}):\n${output}")
endif()
message(STATUS "mvn compile:\n${output}")

# The jar as Maven fetched it into the local repository, and its pom beside it.
set(fetched "${WORK_DIR}/local-repository/org/addbo/addbo/${VERSION}")
foreach(file "addbo-${VERSION}.jar" "addbo-${VERSION}.pom")
  if(NOT EXISTS "${fetched}/${file}")
    message(FATAL_ERROR "Maven did not fetch ${file} into ${fetched}")
  endif()
endforeach()
execute_process(
  COMMAND "${CMAKE_COMMAND}" -E env --unset=LD_LIBRARY_PATH
          "${JAVA}" -cp "${WORK_DIR}/project/target/classes:${fetched}/addbo-${VERSION}.jar"
          example.Consumer
  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
message(STATUS "${output}")
if(NOT status EQUAL 0 OR NOT output MATCHES "from Maven: best Observation")
  message(FATAL_ERROR "the consumer failed (${status})")
endif()
