# cmake -P script run when addbo.jar is built: copies SWIG's Java sources (GENERATED) to OUTPUT
# with the parameters named as in Java. SWIG takes parameter names from the C++ header
# (config_json, state_json), which C++ and C# keep; Java calls them config and state. The names
# are whole identifiers, so the replacement touches nothing else.
# Input: GENERATED, OUTPUT (directories holding org/addbo/*.java).
file(REMOVE_RECURSE "${OUTPUT}")
file(GLOB sources RELATIVE "${GENERATED}" "${GENERATED}/org/addbo/*.java")
foreach(source IN LISTS sources)
  file(READ "${GENERATED}/${source}" text)
  string(REGEX REPLACE "([^A-Za-z0-9_])config_json([^A-Za-z0-9_])" "\\1config\\2" text "${text}")
  string(REGEX REPLACE "([^A-Za-z0-9_])state_json([^A-Za-z0-9_])" "\\1state\\2" text "${text}")
  file(WRITE "${OUTPUT}/${source}" "${text}")
endforeach()
