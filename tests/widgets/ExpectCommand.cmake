# SPDX-License-Identifier: GPL-3.0-or-later
# Runs COMMAND (| separated) and checks its exit code and output, which CTest alone cannot do at
# once (PASS_REGULAR_EXPRESSION ignores the exit code).
# Inputs: COMMAND, EXPECT_RC, optional STDOUT_REGEX, STDERR_REGEX, UNSET_ENV (| separated names,
# e.g. DISPLAY|QT_QPA_PLATFORM to prove that no display is needed).
string(REPLACE "|" ";" COMMAND "${COMMAND}")
string(REPLACE "|" ";" UNSET_ENV "${UNSET_ENV}")
foreach(var IN LISTS UNSET_ENV)
  unset(ENV{${var}})
endforeach()
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
  TIMEOUT 30)
message(STATUS "exit: ${rc}\nstdout:\n${out}\nstderr:\n${err}")
if(NOT "${rc}" STREQUAL "${EXPECT_RC}")
  message(FATAL_ERROR "expected exit code ${EXPECT_RC}, got ${rc}")
endif()
if(DEFINED STDOUT_REGEX AND NOT out MATCHES "${STDOUT_REGEX}")
  message(FATAL_ERROR "stdout does not match: ${STDOUT_REGEX}")
endif()
if(DEFINED STDERR_REGEX AND NOT err MATCHES "${STDERR_REGEX}")
  message(FATAL_ERROR "stderr does not match: ${STDERR_REGEX}")
endif()
