# ctest helper: runs CMD with ARGS (separated by |), passes when the command exits non-zero
# and its combined output matches REGEX.
string(REPLACE "|" ";" ARGS "${ARGS}")
execute_process(COMMAND ${CMD} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(rc EQUAL 0)
  message(FATAL_ERROR "expected a non-zero exit, got 0. Output:\n${all}")
endif()
if(NOT all MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match '${REGEX}' (exit ${rc}):\n${all}")
endif()
message(STATUS "exit ${rc}: ${all}")
