# numcu's headers for C++/CUDA projects: target numcu::headers.
# Define NUMCU_WITH_CUDA=1 (as numcu::headers does when CUDAToolkit is found) to use the CUDA
# toolkit's __half and cuda::std::complex as numcu's float16 and complex types.
# Configure with -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON for host code without the toolkit
# (the compiler's _Float16 and std::complex).
get_filename_component(_numcu_root "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET numcu::headers)
  find_package(CUDAToolkit QUIET)
  if(CUDAToolkit_FOUND)
    # CUDA 13 keeps libcu++ (<cuda/std/complex>) in include/cccl, which nvcc finds by itself but
    # a host compiler only through CUDA::cudart; CMake's FindCUDAToolkit lists that folder from
    # CMake 3.31.10 and 4.0.3 on (3.31.6 and 4.0.2 do not).
    set(_numcu_libcudacxx FALSE)
    foreach(_numcu_dir IN LISTS CUDAToolkit_INCLUDE_DIRS)
      if(EXISTS "${_numcu_dir}/cuda/std/complex")
        set(_numcu_libcudacxx TRUE)
      endif()
    endforeach()
    if(NOT _numcu_libcudacxx)
      set(numcu_FOUND FALSE)
      set(numcu_NOT_FOUND_MESSAGE
          "numcu's headers need CUDA's libcu++ (cuda/std/complex), which CMake ${CMAKE_VERSION}'s "
          "FindCUDAToolkit does not put on the include path for CUDA ${CUDAToolkit_VERSION} "
          "(it lists only ${CUDAToolkit_INCLUDE_DIRS}). Use CMake 4.0.3 or newer (3.31.10 or "
          "newer in the 3.31 series; `pip install cmake` has one), or configure with "
          "-DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON for host code without CUDA types.")
      unset(_numcu_libcudacxx)
      unset(_numcu_dir)
      unset(_numcu_root)
      return()
    endif()
    unset(_numcu_libcudacxx)
    unset(_numcu_dir)
  endif()
  add_library(numcu::headers INTERFACE IMPORTED)
  set_target_properties(numcu::headers PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_numcu_root}/include"
    INTERFACE_COMPILE_FEATURES cxx_std_17)
  if(CUDAToolkit_FOUND)
    set_property(TARGET numcu::headers APPEND PROPERTY INTERFACE_COMPILE_DEFINITIONS NUMCU_WITH_CUDA=1)
    set_property(TARGET numcu::headers APPEND PROPERTY INTERFACE_LINK_LIBRARIES CUDA::cudart)
  else()
    set_property(TARGET numcu::headers APPEND PROPERTY INTERFACE_COMPILE_DEFINITIONS NUMCU_WITH_CUDA=0)
  endif()
endif()
unset(_numcu_root)
set(numcu_FOUND TRUE)
