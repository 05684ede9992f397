# Run by cpack (CPACK_PROJECT_CONFIG_FILE, cmake/MovconfPackage.cmake): the
# Debian package's Depends, from dpkg-shlibdeps over MOVCONF_PROGRAM.
if(CPACK_GENERATOR STREQUAL "DEB")
  set(movconf_shlibdeps_dir ${CPACK_TOPLEVEL_DIRECTORY}/shlibdeps)
  # dpkg-shlibdeps reads a debian/control of the folder it runs in.
  file(WRITE ${movconf_shlibdeps_dir}/debian/control
       "Source: movconf\n\nPackage: movconf\nArchitecture: any\n")
  execute_process(COMMAND dpkg-shlibdeps -O ${MOVCONF_PROGRAM}
                  WORKING_DIRECTORY ${movconf_shlibdeps_dir}
                  OUTPUT_VARIABLE movconf_shlibdeps ERROR_VARIABLE movconf_shlibdeps_error
                  RESULT_VARIABLE movconf_shlibdeps_status)
  if(NOT movconf_shlibdeps_status EQUAL 0
     OR NOT movconf_shlibdeps MATCHES "shlibs:Depends=([^\n]+)")
    message(FATAL_ERROR "dpkg-shlibdeps ${MOVCONF_PROGRAM} failed (${movconf_shlibdeps_status}): "
                        "${movconf_shlibdeps_error}")
  endif()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "${CMAKE_MATCH_1}")
endif()
