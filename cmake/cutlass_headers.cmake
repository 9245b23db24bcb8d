# Where the CUTLASS headers live. Order: the UCUTLASS_CUTLASS_DIR environment
# variable or cache entry (a user's own checkout: the folder holding include/),
# then the project-local PyPI install made by scripts/install-deps.
set(_local "${CMAKE_SOURCE_DIR}/.deps/nvidia-cutlass/cutlass_library/source")
if(DEFINED ENV{UCUTLASS_CUTLASS_DIR} AND NOT UCUTLASS_CUTLASS_DIR)
  set(UCUTLASS_CUTLASS_DIR "$ENV{UCUTLASS_CUTLASS_DIR}")
endif()
if(NOT UCUTLASS_CUTLASS_DIR AND EXISTS "${_local}/include/cutlass/cutlass.h")
  set(UCUTLASS_CUTLASS_DIR "${_local}")
endif()
set(UCUTLASS_CUTLASS_DIR "${UCUTLASS_CUTLASS_DIR}" CACHE PATH
    "CUTLASS root (the folder holding include/cutlass/cutlass.h)")
if(UCUTLASS_CUTLASS_DIR AND NOT EXISTS "${UCUTLASS_CUTLASS_DIR}/include/cutlass/cutlass.h")
  message(FATAL_ERROR "UCUTLASS_CUTLASS_DIR=${UCUTLASS_CUTLASS_DIR} has no include/cutlass/cutlass.h")
endif()
if(NOT UCUTLASS_CUTLASS_DIR)
  message(WARNING "CUTLASS headers not found: run scripts/install-deps or set UCUTLASS_CUTLASS_DIR. "
                  "`ucutlass build` will need --cutlass-dir.")
endif()
