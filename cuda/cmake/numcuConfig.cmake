# numcu's headers for C++/CUDA projects: target numcu::headers.
# Define NUMCU_WITH_CUDA=1 (as numcu::headers does when CUDAToolkit is found) to use the CUDA
# toolkit's __half and cuda::std::complex as numcu's float16 and complex types.
get_filename_component(_numcu_root "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET numcu::headers)
  add_library(numcu::headers INTERFACE IMPORTED)
  set_target_properties(numcu::headers PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_numcu_root}/include"
    INTERFACE_COMPILE_FEATURES cxx_std_17)
  find_package(CUDAToolkit QUIET)
  if(CUDAToolkit_FOUND)
    set_property(TARGET numcu::headers APPEND PROPERTY INTERFACE_COMPILE_DEFINITIONS NUMCU_WITH_CUDA=1)
    set_property(TARGET numcu::headers APPEND PROPERTY INTERFACE_LINK_LIBRARIES CUDA::cudart)
  else()
    set_property(TARGET numcu::headers APPEND PROPERTY INTERFACE_COMPILE_DEFINITIONS NUMCU_WITH_CUDA=0)
  endif()
endif()
set(numcu_FOUND TRUE)
