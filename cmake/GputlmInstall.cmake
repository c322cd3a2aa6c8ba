# install rules: libraries, headers, a CMake package (find_package(gputlm)) and a
# pkg-config file, so a user's own SystemC platform can link the library.
include(CMakePackageConfigHelpers)

install(TARGETS gputlm ${GPUTLM_COMPONENTS} EXPORT gputlmTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gputlm)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/modules/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gputlm
  FILES_MATCHING PATTERN "*.h")
install(EXPORT gputlmTargets NAMESPACE gputlm:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gputlm)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/gputlmConfig.cmake.in
  ${PROJECT_BINARY_DIR}/gputlmConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gputlm)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gputlmConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/gputlmConfig.cmake ${PROJECT_BINARY_DIR}/gputlmConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/SystemC.cmake ${PROJECT_SOURCE_DIR}/cmake/SQLite3.cmake DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gputlm)

# pkg-config: link order follows dependency order (platforms before gpu before sm ...).
set(GPUTLM_PC_LIBS "")
set(_rev ${GPUTLM_COMPONENTS})
list(REVERSE _rev)
foreach(t IN LISTS _rev)
  string(APPEND GPUTLM_PC_LIBS " -l${t}")
endforeach()
# Relocatable: the prefix is found from the .pc file's own location.
file(RELATIVE_PATH GPUTLM_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" GPUTLM_PC_TO_PREFIX "${GPUTLM_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/gputlm.pc.in ${PROJECT_BINARY_DIR}/gputlm.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/gputlm.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
