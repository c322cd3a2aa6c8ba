# SystemC 2.3.4 + TLM-2.0 from Debian's libsystemc-dev, found through pkg-config and
# exposed as one imported target, SystemC::systemc.
find_package(PkgConfig)
if(NOT PKG_CONFIG_FOUND)
  message(FATAL_ERROR "gputlm: pkg-config not found; it is needed to find SystemC. "
                      "Install it with: apt-get install pkg-config (or run tools/install-deps.sh)")
endif()
pkg_check_modules(GPUTLM_SYSTEMC QUIET IMPORTED_TARGET systemc>=2.3.3)
pkg_check_modules(GPUTLM_TLM QUIET tlm)
if(NOT GPUTLM_SYSTEMC_FOUND OR NOT GPUTLM_TLM_FOUND)
  message(FATAL_ERROR "gputlm: SystemC (>= 2.3.3) with TLM-2.0 not found through pkg-config "
                      "(looked for systemc.pc and tlm.pc). Install Debian's libsystemc-dev "
                      "(tools/install-deps.sh does), or set PKG_CONFIG_PATH to your SystemC install.")
endif()
if(NOT TARGET SystemC::systemc)
  add_library(SystemC::systemc INTERFACE IMPORTED GLOBAL)
  target_link_libraries(SystemC::systemc INTERFACE PkgConfig::GPUTLM_SYSTEMC)
  find_package(Threads REQUIRED)
  target_link_libraries(SystemC::systemc INTERFACE Threads::Threads)
  # sc_spawn (used by the clocked-process pattern) needs the dynamic-process API.
  target_compile_definitions(SystemC::systemc INTERFACE SC_INCLUDE_DYNAMIC_PROCESSES)
endif()

# The library's ABI encodes the C++ standard it was built with; linking objects built
# with another standard fails with an unreadable undefined symbol. Check it now.
if(NOT DEFINED GPUTLM_SYSTEMC_ABI_OK)
  set(_probe_dir ${CMAKE_BINARY_DIR}/CMakeFiles/gputlm_systemc_probe)
  file(WRITE ${_probe_dir}/probe.cpp
    "#include <systemc>\nint sc_main(int, char**) { sc_core::sc_time t(1, sc_core::SC_NS); return t.value() == 0; }\n")
  try_compile(GPUTLM_SYSTEMC_ABI_OK ${_probe_dir}/build ${_probe_dir}/probe.cpp
    LINK_LIBRARIES PkgConfig::GPUTLM_SYSTEMC Threads::Threads
    CXX_STANDARD ${CMAKE_CXX_STANDARD} CXX_STANDARD_REQUIRED ON
    OUTPUT_VARIABLE _probe_out)
  if(NOT GPUTLM_SYSTEMC_ABI_OK)
    unset(GPUTLM_SYSTEMC_ABI_OK CACHE)
    message(FATAL_ERROR "gputlm: a C++${CMAKE_CXX_STANDARD} program does not link against SystemC "
      "${GPUTLM_SYSTEMC_VERSION} at ${GPUTLM_SYSTEMC_LIBDIR}. The usual cause is a C++ standard "
      "mismatch: the library records its standard in the symbol sc_api_version_*_cxxYYYYMM. "
      "Build gputlm with the standard SystemC was built with (Debian: C++17).\n${_probe_out}")
  endif()
endif()
message(STATUS "gputlm: SystemC ${GPUTLM_SYSTEMC_VERSION}, TLM ${GPUTLM_TLM_VERSION}")
