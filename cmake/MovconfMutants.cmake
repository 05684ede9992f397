# The mutation-testing registry, read from src/optimized/mutants.h (one
# `X(name, "description")` entry per line, in order). Used by the top-level
# CMakeLists.txt for -DMOVCONF_MUTANT=<name> and by tests/mutants_registry.cmake.

# The names of the registry, in order.
function(movconf_mutant_names header out_names)
  # Matched in the whole text: the entries' lines end with the macro's
  # backslash, which would escape CMake's list separator line by line.
  file(READ "${header}" text)
  string(REGEX MATCHALL "\n *X\\([a-z0-9_]+, \"" entries "${text}")
  set(names)
  foreach(entry IN LISTS entries)
    string(REGEX REPLACE "^\n *X\\(([a-z0-9_]+),.*" "\\1" name "${entry}")
    list(APPEND names ${name})
  endforeach()
  set(${out_names} ${names} PARENT_SCOPE)
endfunction()

# The MOVCONF_MUTANT_ID of `name` (its 1-based position; 0 is "no mutant"),
# or an empty id and a message naming the known mutants.
function(movconf_mutant_id header name out_id out_error)
  movconf_mutant_names("${header}" names)
  list(FIND names "${name}" index)
  if(index LESS 0)
    list(JOIN names ", " known)
    set(${out_id} "" PARENT_SCOPE)
    set(${out_error}
        "MOVCONF_MUTANT='${name}' is not a mutant of ${header}. Known mutants: ${known} (tools/mutation.sh --list describes them)"
        PARENT_SCOPE)
  else()
    math(EXPR id "${index} + 1")
    set(${out_id} ${id} PARENT_SCOPE)
    set(${out_error} "" PARENT_SCOPE)
  endif()
endfunction()
