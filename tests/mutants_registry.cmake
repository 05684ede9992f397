# CTest tools/mutants-registry (cmake -P): the mutation-testing registry of
# src/optimized/mutants.h is usable, as its one reader, tools/mutation.py,
# gives it (CMake's -DMOVCONF_MUTANT asks the same script). At least 25
# uniquely named mutants, as many as the header has entries, each used by a
# site in src/optimized/; ids are positions from 1; an unknown name gets an
# error naming the known ones, from --id and from --mutant.
# Arguments: -DSOURCE_DIR=... -DPYTHON=...
set(Python3_EXECUTABLE ${PYTHON})
include(${SOURCE_DIR}/cmake/MovconfMutants.cmake)
set(header ${SOURCE_DIR}/src/optimized/mutants.h)
set(script ${SOURCE_DIR}/tools/mutation.py)
set(failures 0)
macro(fail text)
  message(SEND_ERROR "${text}")
  math(EXPR failures "${failures} + 1")
endmacro()

# The names, from the script's list: "name  description" per line.
execute_process(COMMAND ${PYTHON} ${script} --list OUTPUT_VARIABLE listed RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  fail("tools/mutation.py --list exited ${status}")
endif()
string(REGEX MATCHALL "(^|\n)[a-z0-9_]+ " names "${listed}")
string(REGEX REPLACE "(^|\n)([a-z0-9_]+) " "\\2" names "${names}")
list(LENGTH names count)
if(count LESS 25)
  fail("only ${count} mutants registered, at least 25 wanted")
endif()
set(unique ${names})
list(REMOVE_DUPLICATES unique)
list(LENGTH unique unique_count)
if(NOT unique_count EQUAL count)
  fail("a mutant name is registered twice")
endif()
# A cross-check of the parser, not a second one: it must not skip an entry.
file(READ ${header} text)
string(REGEX MATCHALL "\n *X\\(" entries "${text}")
list(LENGTH entries entry_count)
if(NOT entry_count EQUAL count)
  fail("mutants.h has ${entry_count} X( entries, tools/mutation.py --list gives ${count}")
endif()

# Every name at a site: MC_MUTANT(name, correct, faulty).
file(GLOB sources ${SOURCE_DIR}/src/optimized/*.c ${SOURCE_DIR}/src/optimized/*.h)
list(REMOVE_ITEM sources ${header})
set(code "")
foreach(source IN LISTS sources)
  file(READ ${source} text)
  string(APPEND code "${text}")
endforeach()
foreach(name IN LISTS names)
  string(FIND "${code}" "MC_MUTANT(${name}," at)
  if(at EQUAL -1)
    fail("mutant ${name} has no site in src/optimized/")
  endif()
endforeach()

# Ids, as CMake gets them: positions from 1; an unknown name is an error
# listing the known ones.
list(GET names 0 first)
list(GET names -1 last)
movconf_mutant_id(${header} ${first} id error)
if(NOT id EQUAL 1 OR error)
  fail("${first}: id '${id}' (1 wanted), error '${error}'")
endif()
movconf_mutant_id(${header} ${last} id error)
if(NOT id EQUAL count)
  fail("${last}: id '${id}' (${count} wanted)")
endif()
movconf_mutant_id(${header} no_such_mutant id error)
string(FIND "${error}" "${first}" named)
if(id OR named EQUAL -1)
  fail("no_such_mutant: id '${id}', error '${error}' (no id, the known names wanted)")
endif()
execute_process(COMMAND ${PYTHON} ${script} --mutant no_such_mutant
                OUTPUT_QUIET ERROR_QUIET RESULT_VARIABLE status)
if(NOT status EQUAL 2)
  fail("tools/mutation.py --mutant no_such_mutant exited ${status}, not 2")
endif()

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} registry checks failed")
endif()
message(STATUS "${count} mutants registered, each with a site")
