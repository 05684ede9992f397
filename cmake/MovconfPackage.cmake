# The Debian package: cpack -G DEB (from the build folder) writes
# movconf_<version>_<arch>.deb of what cmake --install installs, under /usr.
# Its dependencies come from dpkg-shlibdeps (Debian's dpkg-dev): libc6 and
# libcjson1 and libssl3 (libcrypto) for bin/movconf.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME movconf)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "conformance suite for OpenVINO's data-movement operations")
set(CPACK_PACKAGE_DESCRIPTION
    "movconf judges an implementation of BatchToSpace-2, SpaceToBatch-2, SpaceToDepth-1,\n\
DepthToSpace-1 and ExtractImagePatches-3 (a C plugin or a process in any language)\n\
case by case against a literal oracle, and fuzzes it differentially. The package\n\
holds the program, its conformance cases, the plugin headers with a CMake package\n\
and a pkg-config file, man pages and bash completion.")
set(CPACK_PACKAGE_CONTACT "movconf maintainers <movconf@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES OFF)
include(CPack)
