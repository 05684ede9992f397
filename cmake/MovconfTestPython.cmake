# Included at the end of each folder that adds tests: every test of the
# folder finds the build's Python first on PATH, as `python3`. The test
# scripts and the adapters they start say `python3`, and must run the
# interpreter CMake chose (Python3_EXECUTABLE in CMakeLists.txt), not
# whichever shim comes first on the caller's PATH.
# The link is made again at every configure (CREATE_LINK replaces it), so
# that it follows a Python3_EXECUTABLE changed in an existing build tree.
set(MOVCONF_TEST_PYTHON_DIR ${CMAKE_BINARY_DIR}/test-python)
file(MAKE_DIRECTORY ${MOVCONF_TEST_PYTHON_DIR})
file(CREATE_LINK ${Python3_EXECUTABLE} ${MOVCONF_TEST_PYTHON_DIR}/python3 SYMBOLIC)
get_property(movconf_folder_tests DIRECTORY PROPERTY TESTS)
foreach(name ${movconf_folder_tests})
  set_property(TEST ${name} APPEND PROPERTY ENVIRONMENT_MODIFICATION
               "PATH=path_list_prepend:${MOVCONF_TEST_PYTHON_DIR}")
endforeach()
