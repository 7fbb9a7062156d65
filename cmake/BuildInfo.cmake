# Writes OUTPUT from INPUT with the current git commit, at every build (a
# record must name the commit it was computed at, not the one CMake last
# configured), touching OUTPUT only when the text changes.
# cmake -DSOURCE_DIR=… -DINPUT=… -DOUTPUT=… -DCMAKE_CXX_COMPILER_ID=… -DFEMC_BUILD_TYPE=… -P BuildInfo.cmake
execute_process(COMMAND git -C ${SOURCE_DIR} rev-parse HEAD
                OUTPUT_VARIABLE FEMC_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE git_status ERROR_QUIET)
if(NOT git_status EQUAL 0)
  set(FEMC_GIT_COMMIT "unknown")
else()
  execute_process(COMMAND git -C ${SOURCE_DIR} status --porcelain --untracked-files=no
                  OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(dirty)
    string(APPEND FEMC_GIT_COMMIT "+dirty")
  endif()
endif()
configure_file(${INPUT} ${OUTPUT}.new @ONLY)
file(COPY_FILE ${OUTPUT}.new ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.new)
