# gputlm is one library, gputlm::gputlm, made of one static component library per
# block family (core, isa, mem, sm, gpu, platforms). Each family's CMakeLists calls
# gputlm_add_component(); components declare their dependencies on other components.
set(GPUTLM_COMPONENTS "" CACHE INTERNAL "")

add_library(gputlm INTERFACE)
add_library(gputlm::gputlm ALIAS gputlm)

function(gputlm_add_component name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS" ${ARGN})
  set(target gputlm_${name})
  if(NOT ARG_SOURCES)
    message(STATUS "gputlm: component ${name} has no sources yet; skipped")
    return()
  endif()
  add_library(${target} STATIC ${ARG_SOURCES})
  add_library(gputlm::${name} ALIAS ${target})
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON EXPORT_NAME ${name})
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/modules>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/gputlm>)
  target_link_libraries(${target} PUBLIC SystemC::systemc nlohmann_json::nlohmann_json)
  foreach(dep IN LISTS ARG_DEPENDS)
    target_link_libraries(${target} PUBLIC gputlm_${dep})
  endforeach()
  target_link_libraries(${target} PRIVATE $<BUILD_INTERFACE:gputlm_warnings>)
  target_link_libraries(gputlm INTERFACE ${target})
  set(GPUTLM_COMPONENTS ${GPUTLM_COMPONENTS} ${target} CACHE INTERNAL "")
endfunction()
