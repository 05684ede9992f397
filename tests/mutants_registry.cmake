# CTest tools/mutants-registry (cmake -P): the mutation-testing registry of
# src/optimized/mutants.h is usable. At least 25 uniquely named mutants, each
# used by a site in src/optimized/; ids are positions from 1; an unknown name
# gets an error naming the known ones; tools/mutation.sh lists the same names
# and refuses an unknown one. Arguments: -DSOURCE_DIR=... -DPYTHON=...
include(${SOURCE_DIR}/cmake/MovconfMutants.cmake)
set(header ${SOURCE_DIR}/src/optimized/mutants.h)
set(failures 0)
macro(fail text)
  message(SEND_ERROR "${text}")
  math(EXPR failures "${failures} + 1")
endmacro()

movconf_mutant_names(${header} names)
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

# Every name at a site: MC_MUTANT(name) or MC_MUTATE(name, ...).
file(GLOB sources ${SOURCE_DIR}/src/optimized/*.c ${SOURCE_DIR}/src/optimized/*.h)
list(REMOVE_ITEM sources ${header})
set(code "")
foreach(source IN LISTS sources)
  file(READ ${source} text)
  string(APPEND code "${text}")
endforeach()
foreach(name IN LISTS names)
  string(FIND "${code}" "MC_MUTANT(${name})" plain)
  string(FIND "${code}" "MC_MUTATE(${name}," mutate)
  if(plain EQUAL -1 AND mutate EQUAL -1)
    fail("mutant ${name} has no site in src/optimized/")
  endif()
endforeach()

# Ids: positions from 1; an unknown name is an error listing the known ones.
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

# The script's list: one line per mutant, same order.
execute_process(COMMAND ${PYTHON} ${SOURCE_DIR}/tools/mutation.py --list
                OUTPUT_VARIABLE listed RESULT_VARIABLE status)
string(REGEX MATCHALL "(^|\n)[a-z0-9_]+ " listed_names "${listed}")
string(REGEX REPLACE "(^|\n)([a-z0-9_]+) " "\\2" listed_names "${listed_names}")
if(NOT status EQUAL 0 OR NOT listed_names STREQUAL names)
  fail("tools/mutation.py --list (status ${status}) lists other names: ${listed_names}")
endif()
execute_process(COMMAND ${PYTHON} ${SOURCE_DIR}/tools/mutation.py --mutant no_such_mutant
                OUTPUT_QUIET ERROR_QUIET RESULT_VARIABLE status)
if(NOT status EQUAL 2)
  fail("tools/mutation.py --mutant no_such_mutant exited ${status}, not 2")
endif()

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} registry checks failed")
endif()
message(STATUS "${count} mutants registered, each with a site")
