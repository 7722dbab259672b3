# NVSHMEM for the side-by-side binaries (gio-bench-nvshmem, jacobi2d-nvshmem): finds an install or
# the nvidia-nvshmem wheel, and sets up a target that uses NVSHMEM's device API.
#
#   gio_find_nvshmem(<what> <AUTO|ON>)  sets GIO_NVSHMEM_FOUND in the caller. Looks in
#                                      GIO_NVSHMEM_ROOT, else where the python3 on PATH has the
#                                      wheel. ON: a missing NVSHMEM is an error; AUTO: a status
#                                      line says why <what> is not built.
#   gio_use_nvshmem(<target>)           the target's CUDA sources call NVSHMEM's device API:
#                                      relocatable device code, a device link with
#                                      libnvshmem_device.a, the host library, gio's headers (not
#                                      libgio), and the wheel's UID bootstrap plugin.
include_guard(GLOBAL)

set(GIO_NVSHMEM_ROOT "" CACHE PATH
    "NVSHMEM folder with include/ and lib/ (an install, or the nvidia-nvshmem wheel's nvidia/nvshmem); empty: ask python3 for the wheel")

function(gio_find_nvshmem what mode)
  set(GIO_NVSHMEM_FOUND FALSE PARENT_SCOPE)
  # Where to look: GIO_NVSHMEM_ROOT, else the wheel's folder as the python3 on PATH sees it
  # (nvidia.nvshmem may be a namespace package, hence the spec's search locations).
  set(gio_nvshmem_hints "${GIO_NVSHMEM_ROOT}")
  if(NOT GIO_NVSHMEM_ROOT)
    find_program(GIO_BENCH_PYTHON3 NAMES python3)
    if(GIO_BENCH_PYTHON3)
      execute_process(
        COMMAND ${GIO_BENCH_PYTHON3} -c
                "import importlib.util as u; s = u.find_spec('nvidia.nvshmem'); print(list(s.submodule_search_locations)[0])"
        OUTPUT_VARIABLE gio_nvshmem_wheel OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE gio_nvshmem_rc)
      if(gio_nvshmem_rc EQUAL 0 AND gio_nvshmem_wheel)
        set(gio_nvshmem_hints "${gio_nvshmem_wheel}")
      endif()
    endif()
  endif()
  # A changed root invalidates what was found under the old one.
  if(NOT "${gio_nvshmem_hints}" STREQUAL "${GIO_NVSHMEM_SEARCHED}")
    unset(GIO_NVSHMEM_INCLUDE_DIR CACHE)
    unset(GIO_NVSHMEM_HOST_LIBRARY CACHE)
    unset(GIO_NVSHMEM_DEVICE_LIBRARY CACHE)
    unset(GIO_NVSHMEM_UID_PLUGIN CACHE)
    set(GIO_NVSHMEM_SEARCHED "${gio_nvshmem_hints}" CACHE INTERNAL "")
  endif()
  # The wheel ships versioned files only (libnvshmem_host.so.3): named in full, linked by path.
  find_path(GIO_NVSHMEM_INCLUDE_DIR nvshmem.h HINTS ${gio_nvshmem_hints} PATH_SUFFIXES include)
  find_library(GIO_NVSHMEM_HOST_LIBRARY NAMES nvshmem_host libnvshmem_host.so.3
               HINTS ${gio_nvshmem_hints} PATH_SUFFIXES lib lib64)
  find_library(GIO_NVSHMEM_DEVICE_LIBRARY NAMES libnvshmem_device.a nvshmem_device
               HINTS ${gio_nvshmem_hints} PATH_SUFFIXES lib lib64)
  find_file(GIO_NVSHMEM_UID_PLUGIN NAMES nvshmem_bootstrap_uid.so nvshmem_bootstrap_uid.so.3
            HINTS ${gio_nvshmem_hints} PATH_SUFFIXES lib lib64)

  if(NOT GIO_NVSHMEM_INCLUDE_DIR OR NOT GIO_NVSHMEM_HOST_LIBRARY OR NOT GIO_NVSHMEM_DEVICE_LIBRARY)
    set(gio_nvshmem_missing
        "NVSHMEM not found (looked in '${gio_nvshmem_hints}': include ${GIO_NVSHMEM_INCLUDE_DIR}, host library ${GIO_NVSHMEM_HOST_LIBRARY}, device library ${GIO_NVSHMEM_DEVICE_LIBRARY}); set GIO_NVSHMEM_ROOT")
    if(mode STREQUAL "ON")
      message(FATAL_ERROR "gio: ${gio_nvshmem_missing}")
    endif()
    message(STATUS "gio: ${what} not built: ${gio_nvshmem_missing}")
    return()
  endif()
  message(STATUS "gio: ${what} uses ${GIO_NVSHMEM_HOST_LIBRARY}")
  set(GIO_NVSHMEM_FOUND TRUE PARENT_SCOPE)
endfunction()

function(gio_use_nvshmem target)
  # NVSHMEM's device API lives in a static device library: relocatable device code and a device link.
  set_target_properties(${target} PROPERTIES
    CUDA_SEPARABLE_COMPILATION ON
    CUDA_RESOLVE_DEVICE_SYMBOLS ON
    CUDA_RUNTIME_LIBRARY Shared)
  # gio's headers (the platform layer); such a binary never starts gio (worksteal-nvshmem links
  # libgio for gio::error only).
  target_include_directories(${target} PRIVATE
    ${GIO_NVSHMEM_INCLUDE_DIR} $<TARGET_PROPERTY:gio,INTERFACE_INCLUDE_DIRECTORIES>)
  target_link_libraries(${target} PRIVATE
    ${GIO_NVSHMEM_DEVICE_LIBRARY} ${GIO_NVSHMEM_HOST_LIBRARY} CUDA::cudart CUDA::cuda_driver)
  if(GIO_NVSHMEM_UID_PLUGIN)
    target_compile_definitions(${target} PRIVATE GIO_BENCH_NVSHMEM_UID_PLUGIN="${GIO_NVSHMEM_UID_PLUGIN}")
  endif()
  get_filename_component(gio_nvshmem_lib_dir "${GIO_NVSHMEM_HOST_LIBRARY}" DIRECTORY)
  set_target_properties(${target} PROPERTIES BUILD_RPATH "${gio_nvshmem_lib_dir}")
endfunction()
