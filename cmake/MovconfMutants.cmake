# The mutation-testing registry of src/optimized/mutants.h, as
# tools/mutation.py reads it: that script is the registry's one parser, and
# this module asks it for the id of -DMOVCONF_MUTANT=<name> (top-level
# CMakeLists.txt).
# Script mode (tests/mutants_registry.cmake) sets Python3_EXECUTABLE itself.
set(MOVCONF_MUTATION_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/../tools/mutation.py)
if(NOT Python3_EXECUTABLE)
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
endif()

# The MOVCONF_MUTANT_ID of `name` in `header` (its 1-based position; 0 is "no
# mutant"), or an empty id and a message naming the known mutants.
function(movconf_mutant_id header name out_id out_error)
  execute_process(COMMAND ${Python3_EXECUTABLE} ${MOVCONF_MUTATION_SCRIPT} --registry ${header}
                          --id ${name}
                  OUTPUT_VARIABLE id ERROR_VARIABLE why RESULT_VARIABLE status
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_STRIP_TRAILING_WHITESPACE)
  if(status EQUAL 0 AND id MATCHES "^[1-9][0-9]*$")
    set(${out_id} ${id} PARENT_SCOPE)
    set(${out_error} "" PARENT_SCOPE)
  else()
    set(${out_id} "" PARENT_SCOPE)
    set(${out_error} "MOVCONF_MUTANT='${name}' is not a mutant of ${header}: ${why}" PARENT_SCOPE)
  endif()
endfunction()
