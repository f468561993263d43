# SPDX-License-Identifier: GPL-3.0-or-later
# Runs lupdate on copies of the .ts files and fails if any copy changes, i.e. if a string was
# added to or removed from the sources without `--target update_translations`.
# Inputs (| separated lists): LUPDATE, SOURCES, TS_FILES, OPTIONS, INCLUDE_DIR, WORK_DIR.
string(REPLACE "|" ";" SOURCES "${SOURCES}")
string(REPLACE "|" ";" TS_FILES "${TS_FILES}")
string(REPLACE "|" ";" OPTIONS "${OPTIONS}")
string(REPLACE "|" ";" INCLUDE_DIR "${INCLUDE_DIR}")
set(include_args)
foreach(dir IN LISTS INCLUDE_DIR)
  list(APPEND include_args -I "${dir}")
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

set(copies)
foreach(ts IN LISTS TS_FILES)
  get_filename_component(name "${ts}" NAME)
  file(COPY_FILE "${ts}" "${WORK_DIR}/${name}")
  list(APPEND copies "${WORK_DIR}/${name}")
endforeach()

execute_process(
  COMMAND "${LUPDATE}" ${OPTIONS} ${include_args} ${SOURCES} -ts ${copies}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "lupdate failed (${rc}):\n${out}\n${err}")
endif()

set(stale)
foreach(ts IN LISTS TS_FILES)
  get_filename_component(name "${ts}" NAME)
  file(READ "${ts}" before)
  file(READ "${WORK_DIR}/${name}" after)
  if(NOT before STREQUAL after)
    list(APPEND stale "${name}")
  endif()
endforeach()
if(stale)
  message(FATAL_ERROR "Out of date: ${stale}. lupdate said:\n${out}\n"
    "Run `cmake --build <build dir> --target update_translations`, translate the new strings "
    "and commit the .ts files. Compare: diff ${WORK_DIR} with translations/.")
endif()
message(STATUS "Translations are up to date:\n${out}")
