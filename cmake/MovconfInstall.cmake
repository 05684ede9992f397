# movconf as an installed tool (README "Installing"): cmake --install puts
#   bin/movconf                           the program
#   include/movconf/*.h                   the public headers (plugin.h, version.h...)
#   share/movconf/{conformance,conformance-large,generators,spec}
#                                         what movconf finds beside its bin/ folder
#   lib/libmovconf_{common,oracle,optimized}.a
#                                         the kernels (movconf/oracle.h, optimized.h)
#   lib/cmake/movconf/                    find_package(movconf CONFIG): movconf::plugin,
#                                         movconf::kernels, movconf::movconf (the program)
#   share/pkgconfig/movconf-plugin.pc     pkg-config --cflags movconf-plugin
#   share/doc/movconf/                    README, docs/, examples to copy
#   share/man/man1/, share/bash-completion/completions/movconf
# Whole folders are installed, so that new cases and pages need no edit here.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(MOVCONF_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/movconf)
set(MOVCONF_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/movconf)
set(MOVCONF_INSTALL_EXAMPLESDIR ${CMAKE_INSTALL_DOCDIR}/examples)
set(movconf_junk PATTERN __pycache__ EXCLUDE PATTERN node_modules EXCLUDE PATTERN "*.pyc" EXCLUDE)

install(TARGETS movconf RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/movconf ${CMAKE_BINARY_DIR}/include/movconf
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(DIRECTORY conformance conformance-large generators spec
        DESTINATION ${MOVCONF_INSTALL_DATADIR} ${movconf_junk})

# The plugin ABI's headers, for a plugin author's build: only plugin.h's
# folder; a plugin links nothing of movconf's.
add_library(movconf_plugin INTERFACE)
add_library(movconf::plugin ALIAS movconf_plugin)
target_include_directories(movconf_plugin INTERFACE
                           $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include>
                           $<BUILD_INTERFACE:${CMAKE_BINARY_DIR}/include>
                           $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
set_target_properties(movconf_plugin PROPERTIES EXPORT_NAME plugin)
install(TARGETS movconf_plugin EXPORT movconfTargets)
# The oracle and the optimized kernels, static and position-independent, for
# a plugin that wraps or falls back on them (examples/plugin_movconf).
add_library(movconf_kernels INTERFACE)
target_link_libraries(movconf_kernels INTERFACE movconf_optimized movconf_oracle)
foreach(layer kernels common oracle optimized)
  set_target_properties(movconf_${layer} PROPERTIES EXPORT_NAME ${layer})
endforeach()
install(TARGETS movconf_kernels movconf_common movconf_oracle movconf_optimized
        EXPORT movconfTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT movconfTargets NAMESPACE movconf:: DESTINATION ${MOVCONF_INSTALL_CMAKEDIR})
configure_package_config_file(cmake/movconfConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/movconfConfig.cmake
                              INSTALL_DESTINATION ${MOVCONF_INSTALL_CMAKEDIR}
                              PATH_VARS CMAKE_INSTALL_BINDIR)
# 0.x: a new minor version may change the ABI of plugin.h.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/movconfConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/movconfConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/movconfConfigVersion.cmake
        DESTINATION ${MOVCONF_INSTALL_CMAKEDIR})

# pkg-config, relative to its own folder so that the prefix can move; but
# installed at /usr (the Debian package), prefix=/usr, for pkg-config
# prints ${pcfiledir}/../../include unshortened and drops only the
# system folder spelt /usr/include. The prefix is known at install time
# (cmake --install --prefix, CPack's /usr), so the choice is made then.
file(RELATIVE_PATH movconf_pc_to_prefix ${CMAKE_INSTALL_FULL_DATADIR}/pkgconfig
     ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" movconf_pc_to_prefix "${movconf_pc_to_prefix}")
set(movconf_pc_prefix "\${pcfiledir}/${movconf_pc_to_prefix}")
configure_file(cmake/movconf-plugin.pc.in ${CMAKE_CURRENT_BINARY_DIR}/movconf-plugin.pc @ONLY)
set(movconf_pc_prefix /usr)
configure_file(cmake/movconf-plugin.pc.in ${CMAKE_CURRENT_BINARY_DIR}/pc-usr/movconf-plugin.pc
               @ONLY)
install(CODE "
  set(movconf_pc \"${CMAKE_CURRENT_BINARY_DIR}/movconf-plugin.pc\")
  if(CMAKE_INSTALL_PREFIX MATCHES \"^/usr/*$\")
    set(movconf_pc \"${CMAKE_CURRENT_BINARY_DIR}/pc-usr/movconf-plugin.pc\")
  endif()
  file(INSTALL DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATADIR}/pkgconfig\"
       TYPE FILE FILES \"\${movconf_pc}\")")

# Documentation and what an author copies: the example plugins, the
# Python and JavaScript adapter helpers, the numpy adapter, the CI workflow.
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
# Debian's place for the copyright and licence statement (the .deb's too).
install(FILES cmake/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} ${movconf_junk})
install(FILES examples/plugin_movconf/plugin_movconf.c examples/plugin_movconf/attr_view.h
              examples/numpy_adapter.py
              ${CMAKE_BINARY_DIR}/examples/plugin_abi_example.c
        DESTINATION ${MOVCONF_INSTALL_EXAMPLESDIR})
# The helpers where the examples look for them, as in the source tree
# (numpy_adapter.py imports adapters/common/movconf_adapter.py).
install(DIRECTORY examples/adapters/common/ DESTINATION ${MOVCONF_INSTALL_EXAMPLESDIR}/adapters/common
        ${movconf_junk})
# The helper reads the list of operations beside itself there.
install(FILES spec/operations.json DESTINATION ${MOVCONF_INSTALL_EXAMPLESDIR}/adapters/common)

# Man pages, written from the built program's own help (tools/manpages.py)
# at build time, so that they cannot drift from it.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(movconf_man_stamp ${CMAKE_BINARY_DIR}/man/pages.stamp)
add_custom_command(OUTPUT ${movconf_man_stamp}
                   COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tools/manpages.py
                           $<TARGET_FILE:movconf> ${CMAKE_BINARY_DIR}/man
                   COMMAND ${CMAKE_COMMAND} -E touch ${movconf_man_stamp}
                   DEPENDS movconf ${CMAKE_SOURCE_DIR}/tools/manpages.py
                   COMMENT "Writing the man pages from movconf's help")
add_custom_target(movconf_manpages ALL DEPENDS ${movconf_man_stamp})
install(DIRECTORY ${CMAKE_BINARY_DIR}/man/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
        FILES_MATCHING PATTERN "*.1")
install(FILES tools/movconf-completion.bash RENAME movconf
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
