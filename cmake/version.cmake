# Writes OUT with the project version and the git revision of SRC, only when its text changes (so an
# unchanged revision rebuilds nothing). Run by the ssdtlm_version target at every build.
execute_process(COMMAND git -C ${SRC} describe --always --dirty --abbrev=12
                OUTPUT_VARIABLE rev OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE failed)
if(failed OR rev STREQUAL "")
  set(rev "unknown")
endif()
set(text "#define SSDTLM_VERSION \"${VERSION}\"\n#define SSDTLM_GIT_REVISION \"${rev}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
else()
  set(old "")
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
