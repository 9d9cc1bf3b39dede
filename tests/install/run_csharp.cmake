# install_bindings_csharp: copies EXE alone into WORK_DIR and runs it with Mono, which finds
# Addbo.dll through MONO_PATH (the installed directory) and libaddbo_csharp.so beside it.
file(REMOVE_RECURSE "${WORK_DIR}")
file(COPY "${EXE}" DESTINATION "${WORK_DIR}")
get_filename_component(name "${EXE}" NAME)
set(ENV{MONO_PATH} "${MONO_PATH}")
execute_process(COMMAND "${MONO}" "${WORK_DIR}/${name}" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${name} failed (${status}) with MONO_PATH=${MONO_PATH}")
endif()
