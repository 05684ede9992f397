# The Debian package: cpack -G DEB (from the build folder) writes
# movconf_<version>_<arch>.deb of what cmake --install installs, under /usr.
# Its dependencies come from dpkg-shlibdeps (Debian's dpkg-dev): libc6 and
# libcjson1 and libssl3 (libcrypto) for bin/movconf.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME movconf)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "conformance suite for OpenVINO's data-movement operations")
# The operations, from the one list (include/movconf/op_list.h), so that a
# new row reaches the description: "A, B, ... and Z".
file(STRINGS ${CMAKE_SOURCE_DIR}/include/movconf/op_list.h movconf_op_rows
     REGEX "^MC_OP_ROW\\([A-Z_]+, [a-z_0-9]+, \"[^\"]+\"")
list(TRANSFORM movconf_op_rows REPLACE "^[^\"]*\"([^\"]+)\".*" "\\1")
list(POP_BACK movconf_op_rows movconf_last_op)
list(JOIN movconf_op_rows ", " movconf_ops)
# The description's text, its lines under 76 columns.
set(movconf_text "movconf judges an implementation of ${movconf_ops} and ${movconf_last_op} \
(a C plugin or a process in any language) case by case against a literal oracle, and \
fuzzes it differentially. The package holds the program, its conformance cases, the \
plugin headers with a CMake package and a pkg-config file, man pages and bash completion.")
string(REPLACE " " ";" movconf_words "${movconf_text}")
set(CPACK_PACKAGE_DESCRIPTION "")
set(movconf_line "")
foreach(word IN LISTS movconf_words)
  string(LENGTH "${movconf_line} ${word}" movconf_len)
  if(movconf_line STREQUAL "")
    set(movconf_line "${word}")
  elseif(movconf_len GREATER 75)
    string(APPEND CPACK_PACKAGE_DESCRIPTION "${movconf_line}\n")
    set(movconf_line "${word}")
  else()
    string(APPEND movconf_line " ${word}")
  endif()
endforeach()
string(APPEND CPACK_PACKAGE_DESCRIPTION "${movconf_line}")
set(CPACK_PACKAGE_CONTACT "movconf maintainers <movconf@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# Depends: dpkg-shlibdeps over the package's one dynamically linked file,
# the movconf program (cmake/MovconfShlibdeps.cmake, at cpack time).
# CPack's own SHLIBDEPS runs `file` once per installed file to find it:
# about 470 files, 50 s of CPU (issue 34). tests/package.sh checks that the
# program is the package's only dynamically linked file, and the Depends.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_BINARY_DIR}/MovconfPackageProject.cmake)
file(GENERATE OUTPUT ${CPACK_PROJECT_CONFIG_FILE}
     CONTENT "set(MOVCONF_PROGRAM \"$<TARGET_FILE:movconf>\")
include(\"${CMAKE_CURRENT_LIST_DIR}/MovconfShlibdeps.cmake\")
")
set(CPACK_STRIP_FILES OFF)
include(CPack)
