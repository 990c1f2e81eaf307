# Where numcu's build takes nvcc from, and what that nvcc can target.
#
# numcu_find_nvcc() sets, in the caller's scope:
#   NUMCU_NVCC         the compiler's path, or "" when none was found;
#   NUMCU_NVCC_FROM    where it came from, for the configure log (pip install -v shows it);
#   NUMCU_NVCC_ROOT    the toolkit folder it belongs to (bin/nvcc, include, lib), for
#                      FindCUDAToolkit;
#   NUMCU_NVCC_SEARCHED what was searched, for the message of a build without one.
# It searches, first to last: CMAKE_CUDA_COMPILER given to CMake and the environment's CUDACXX;
# nvcc on PATH; CUDA_HOME, CUDA_PATH and /usr/local/cuda; NVIDIA's compiler wheels
# (nvidia-cuda-nvcc with nvidia-nvvm, nvidia-cuda-crt, nvidia-cuda-runtime and nvidia-cuda-cccl)
# that the build's Python can import, which is where pip puts them when the build backend
# (.ci/numcu_backend.py) asked for them on a machine without a toolkit.
function(numcu_find_nvcc)
  set(_nvcc "")
  if(DEFINED CMAKE_CUDA_COMPILER AND NOT CMAKE_CUDA_COMPILER STREQUAL ""
     AND NOT CMAKE_CUDA_COMPILER STREQUAL "${NUMCU_NVCC_FOUND}")
    set(_nvcc "${CMAKE_CUDA_COMPILER}")
    set(_from "CMAKE_CUDA_COMPILER")
  elseif(NOT "$ENV{CUDACXX}" STREQUAL "")
    set(_nvcc "$ENV{CUDACXX}")
    set(_from "the environment variable CUDACXX")
  endif()
  if(_nvcc STREQUAL "")
    find_program(_path_nvcc nvcc NO_CACHE)
    if(_path_nvcc)
      set(_nvcc "${_path_nvcc}")
      set(_from "PATH")
    endif()
  endif()
  if(_nvcc STREQUAL "")
    foreach(_root "$ENV{CUDA_HOME}" "$ENV{CUDA_PATH}" /usr/local/cuda)
      if(NOT _root STREQUAL "" AND EXISTS "${_root}/bin/nvcc")
        set(_nvcc "${_root}/bin/nvcc")
        set(_from "the CUDA toolkit in ${_root}")
        break()
      endif()
    endforeach()
  endif()
  if(_nvcc STREQUAL "" AND NOT "$ENV{NUMCU_CUDA_WHEELS}" MATCHES "^(0|OFF|off|no|NO)$")
    if(NOT Python_EXECUTABLE)
      find_package(Python COMPONENTS Interpreter)
    endif()
    if(Python_EXECUTABLE)
      execute_process(
        COMMAND "${Python_EXECUTABLE}" "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/find_nvidia_nvcc.py"
        OUTPUT_VARIABLE _found
        RESULT_VARIABLE _status
        OUTPUT_STRIP_TRAILING_WHITESPACE)
      # One line: <nvcc path>\t<what the wheels are>, or a line starting "missing\t" that says
      # which of the wheels that nvcc needs is not installed.
      if(_status EQUAL 0 AND _found MATCHES "^([^\t]+)\t(.*)$")
        if(CMAKE_MATCH_1 STREQUAL "missing")
          set(_wheels_note "${CMAKE_MATCH_2}")
        else()
          set(_nvcc "${CMAKE_MATCH_1}")
          set(_from "NVIDIA's compiler wheels (${CMAKE_MATCH_2})")
        endif()
      endif()
    endif()
  endif()

  set(_root "")
  if(NOT _nvcc STREQUAL "")
    get_filename_component(_real "${_nvcc}" REALPATH)
    get_filename_component(_bin "${_real}" DIRECTORY)
    get_filename_component(_root "${_bin}" DIRECTORY)
  endif()
  set(_searched "not on PATH, nor in CUDA_HOME, CUDA_PATH or /usr/local/cuda, nor among NVIDIA's "
                "compiler wheels")
  if(DEFINED _wheels_note)
    string(APPEND _searched " (${_wheels_note})")
  endif()
  string(CONCAT _searched ${_searched})
  set(NUMCU_NVCC "${_nvcc}" PARENT_SCOPE)
  set(NUMCU_NVCC_FROM "${_from}" PARENT_SCOPE)
  set(NUMCU_NVCC_ROOT "${_root}" PARENT_SCOPE)
  set(NUMCU_NVCC_SEARCHED "${_searched}" PARENT_SCOPE)
endfunction()

# numcu_nvcc_targets(NVCC) sets NUMCU_NVCC_VERSION (e.g. 13.0) and NUMCU_NVCC_ARCHS, the
# architectures the compiler can make PTX for, as CMake writes them (75;80;86;...;120a).
function(numcu_nvcc_targets nvcc)
  execute_process(COMMAND "${nvcc}" --version OUTPUT_VARIABLE _out RESULT_VARIABLE _status
                  ERROR_VARIABLE _err)
  if(NOT _status EQUAL 0 OR NOT _out MATCHES "release ([0-9]+\\.[0-9]+)")
    message(FATAL_ERROR "numcu: ${nvcc} does not run (`nvcc --version`: ${_err}${_out}). Nothing "
                        "was installed.")
  endif()
  set(NUMCU_NVCC_VERSION "${CMAKE_MATCH_1}" PARENT_SCOPE)
  execute_process(COMMAND "${nvcc}" --list-gpu-arch OUTPUT_VARIABLE _out RESULT_VARIABLE _status
                  ERROR_QUIET)
  set(_archs "")
  if(_status EQUAL 0)
    string(REGEX MATCHALL "compute_[0-9]+[a-z]?" _computes "${_out}")
    foreach(_c IN LISTS _computes)
      string(REPLACE "compute_" "" _c "${_c}")
      list(APPEND _archs "${_c}")
    endforeach()
  endif()
  set(NUMCU_NVCC_ARCHS "${_archs}" PARENT_SCOPE)
endfunction()

# numcu_check_architectures(LIST WHY): a FATAL_ERROR that names every architecture of LIST (CMake's
# notation: 86, 86-real, 90a-virtual; all, all-major and native pass) that the compiler cannot
# target, what it can, and which CUDA to use instead.
function(numcu_check_architectures list why)
  if(NUMCU_NVCC_ARCHS STREQUAL "")
    return()  # an nvcc too old to list them: its own error will do
  endif()
  set(_unknown "")
  foreach(_item IN LISTS list)
    if(_item MATCHES "^(all|all-major|native|default|OFF)$")
      continue()
    endif()
    if(NOT _item MATCHES "^([0-9]+[a-z]?)(-real|-virtual)?$")
      list(APPEND _unknown "${_item}")
      continue()
    endif()
    if(NOT CMAKE_MATCH_1 IN_LIST NUMCU_NVCC_ARCHS)
      list(APPEND _unknown "${_item}")
    endif()
  endforeach()
  if(_unknown)
    list(JOIN _unknown ", " _unknown)
    list(JOIN NUMCU_NVCC_ARCHS " " _known)
    string(CONCAT _message
      "numcu: the CUDA architectures ${why} include ${_unknown}, which nvcc ${NUMCU_NVCC_VERSION} "
      "(${NUMCU_NVCC}) cannot compile for. It knows: ${_known}. A value is a compute capability "
      "without the dot (86 for 8.6), optionally followed by -real or -virtual. GPUs older than "
      "compute capability 7.5 need CUDA 12 (the numcu-cuda12x wheel, or a CUDA 12 toolkit); "
      "newer ones need a newer CUDA. Nothing was installed.")
    message(FATAL_ERROR "${_message}")
  endif()
endfunction()

# numcu_forget_cuda_compiler(): where this build folder was configured with another nvcc than
# NUMCU_NVCC (pip's build environment holding NVIDIA's wheels is a new folder each time), forget
# what CMake found about that one: its compiler file and the CUDA toolkit's cached paths. CMake
# would otherwise see a changed compiler, delete the whole cache and configure again without the
# values scikit-build-core gave in its initial cache.
function(numcu_forget_cuda_compiler)
  set(_file "${CMAKE_BINARY_DIR}${CMAKE_FILES_DIRECTORY}/${CMAKE_VERSION}/CMakeCUDACompiler.cmake")
  if(NUMCU_NVCC STREQUAL "${NUMCU_NVCC_ENABLED}" OR NOT EXISTS "${_file}")
    return()
  endif()
  message(STATUS "numcu: another nvcc than this build folder's last: detecting it anew")
  file(REMOVE "${_file}")
  get_cmake_property(_variables CACHE_VARIABLES)
  foreach(_variable IN LISTS _variables)
    if(_variable MATCHES "^(CUDA_|CUDAToolkit_|_CUDAToolkit_)" OR _variable STREQUAL "CMAKE_CUDA_COMPILER")
      unset(${_variable} CACHE)
    endif()
  endforeach()
endfunction()
