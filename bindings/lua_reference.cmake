# addbo_write_lua_reference(<table> <output>): reads the rows of optimizer_methods.swg (the
# wrapped methods, each with its one documentation text) and writes the Lua reference, an
# LDoc-style Lua file with one empty function per method under its doc comment. SWIG expands
# the same rows into the Java and C# doc comments; this is the third language's copy, made
# from the same text. Refuses a doc text with a character that one of the three outputs
# cannot carry as is (" \ < > &), naming the method.
function(addbo_write_lua_reference table output)
  file(READ "${table}" text)
  # Comments hold the table's own documentation, macro names included. A ";" would split the
  # rows as a CMake list: it is put back in each doc text.
  string(REGEX REPLACE "//[^\n]*" "" text "${text}")
  string(REPLACE ";" "@SEMICOLON@" text "${text}")
  set(space "[ \t\r\n]*")
  set(literal "\"[^\"]*\"")
  string(REGEX MATCHALL "ADDBO_[A-Z_]+\\([^\"]*${literal}(${space}${literal})*${space}\\)"
    rows "${text}")
  if(NOT rows)
    message(FATAL_ERROR "${table}: no ADDBO_... rows found")
  endif()

  set(class_doc "")
  set(module_functions "")
  set(methods "")
  foreach(row IN LISTS rows)
    string(REGEX MATCH "^ADDBO_([A-Z_]+)\\(([^\"]*)(\".*\")${space}\\)$" matched "${row}")
    set(kind "${CMAKE_MATCH_1}")
    set(names "${CMAKE_MATCH_2}")
    set(doc "${CMAKE_MATCH_3}")
    string(REGEX REPLACE "\"${space}\"" "" doc "${doc}")  # adjacent literals are one text
    string(REGEX REPLACE "^\"(.*)\"$" "\\1" doc "${doc}")
    string(REPLACE "@SEMICOLON@" ";" doc "${doc}")
    if(kind STREQUAL "CLASS")
      if(NOT names MATCHES "^${space}$")
        message(FATAL_ERROR "${table}: cannot read the row ${row}")
      endif()
      set(name "the class")
    elseif(kind STREQUAL "CONSTRUCTOR")
      if(NOT names MATCHES "^${space}\\(([^)]*)\\)${space},${space}$")
        message(FATAL_ERROR "${table}: cannot read the row ${row}")
      endif()
      set(name Optimizer)
      set(arguments "${CMAKE_MATCH_1}")
    else()
      if(NOT names MATCHES
         "^${space}([a-z_]+)${space},${space}([A-Za-z]+)${space},${space}([A-Za-z]+)${space},${space}\\(([^)]*)\\)${space},${space}$")
        message(FATAL_ERROR "${table}: cannot read the row ${row}")
      endif()
      set(name "${CMAKE_MATCH_1}")
      set(java_name "${CMAKE_MATCH_2}")
      set(arguments "${CMAKE_MATCH_4}")
    endif()
    if(doc MATCHES "[<>&]" OR doc MATCHES "\\\\")
      message(FATAL_ERROR "${table}: the doc of ${name} holds one of \\ < > &, which the C# XML "
        "documentation or this reader cannot carry as is: ${doc}")
    endif()
    set(entry "\n--- ${doc}\n")
    if(kind STREQUAL "CLASS")
      set(class_doc "${doc}")
    elseif(kind STREQUAL "CONSTRUCTOR")
      string(APPEND module_functions "${entry}function addbo.Optimizer(${arguments}) end\n")
    elseif(kind STREQUAL "STATIC")
      # Lua takes the Java name of a static (addbo.load for load_state).
      string(APPEND module_functions "${entry}function addbo.${java_name}(${arguments}) end\n")
    elseif(kind MATCHES "^(METHOD|UNLOCKED_METHOD|INTERRUPT_METHOD)$")
      string(APPEND methods "${entry}function Optimizer:${name}(${arguments}) end\n")
    else()
      message(FATAL_ERROR "${table}: unknown row kind ADDBO_${kind}")
    endif()
  endforeach()

  set(reference "-- The Lua API of addbo (require(\"addbo\")): a reference, written by
-- bindings/lua_reference.cmake from bindings/optimizer_methods.swg. Documentation only: the
-- functions are empty. Besides these, opt:close() frees the native optimizer now (closing again
-- does nothing) and opt:closed() tells whether it was closed.
--
-- In Lua (docs/bindings.md): a configuration or saved state is a table or JSON text; info()
-- returns a table; save() returns the exact JSON text and save_table() the same as a table.
-- Points are sequences x[1] .. x[D] with integer variables as Lua integers and categorical
-- variables as the choice itself (a string). Errors are objects {status, message, where} whose
-- tostring is where .. status .. ': ' .. message. addbo.null stands for JSON null, and
-- setmetatable({}, addbo.json_object) for an empty JSON object (an empty table is an array).
local addbo = {}

--- addbo.Optimizer: ${class_doc}
local Optimizer = {}
${module_functions}${methods}
-- Lua's own.

--- The value as JSON text: tables with keys 1..n are arrays, with string keys objects.
function addbo.to_json(value) end

--- The value of a JSON text: objects and arrays as tables, null as addbo.null.
function addbo.from_json(text) end

--- The complete state as a table: the document save writes, which load also takes.
function Optimizer:save_table() end

return { module = addbo, Optimizer = Optimizer }
")
  file(WRITE "${output}.tmp" "${reference}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${output}.tmp" "${output}")
  file(REMOVE "${output}.tmp")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${table}")
endfunction()
