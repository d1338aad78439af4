# Runs the workbench with --lang LANG --screenshot OUT (offscreen) and checks that a real picture came out; the
# workbench exits with an error when it cannot load the translation, so a picture means it rendered under it.
file(REMOVE "${OUT}" "${OUT}.tunescope")
set(ENV{QT_QPA_PLATFORM} offscreen)
if(NOT DEFINED ENV{XDG_RUNTIME_DIR})
  set(ENV{XDG_RUNTIME_DIR} "/tmp/tunescope-xdg")
endif()
execute_process(COMMAND ${APP} --lang ${LANG} --screenshot ${OUT} --task 3 --workspace ${OUT}.tunescope
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 100)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tunescope --lang ${LANG} --screenshot exited with ${rc}: ${err}")
endif()
if(NOT EXISTS "${OUT}")
  message(FATAL_ERROR "no screenshot written to ${OUT}")
endif()
file(SIZE "${OUT}" size)
# As run_screenshot.cmake: a blank window compresses to a few kB; the window with text and a DAG is far larger.
if(size LESS 40000)
  message(FATAL_ERROR "screenshot ${OUT} is only ${size} bytes: the window looks empty")
endif()
message(STATUS "screenshot ${OUT} (--lang ${LANG}): ${size} bytes")
