# gputlm_add_test(name SOURCES ... [LINK ...]): one Catch2 executable whose TEST_CASEs
# each run in their own process (one SystemC elaboration per process), discovered by
# catch_discover_tests. The project sc_main (tests/support) runs the Catch session.
function(gputlm_add_test name)
  cmake_parse_arguments(ARG "" "WORKING_DIRECTORY" "SOURCES;LINK;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE gputlm_test_main ${ARG_LINK} gputlm_warnings)
  if(NOT ARG_WORKING_DIRECTORY)
    set(ARG_WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  endif()
  catch_discover_tests(${name} WORKING_DIRECTORY ${ARG_WORKING_DIRECTORY}
    PROPERTIES LABELS "${ARG_LABELS}" TIMEOUT 300)
endfunction()
