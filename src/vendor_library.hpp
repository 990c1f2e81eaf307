// NVIDIA's math libraries (cuBLAS, cuSOLVER, cuFFT), loaded at their first use with dlopen instead
// of linked: the module stays small and imports fast, and a machine without one of them loses only
// what needs it. One search for all of them: the path in the library's environment variable, the
// dynamic linker's own search, NVIDIA's wheels on sys.path, then the toolkit (CUDA_HOME,
// CUDA_PATH, /usr/local/cuda); a clear RuntimeError naming what to install where none is found.
#pragma once

#include <mutex>
#include <string>

namespace numcu::python {

struct VendorLibrarySpec {
  const char* name;     // "cuBLAS", for messages
  const char* stem;     // "libcublas.so."
  int major;            // the soname's version (vendor_api.hpp's kCublasMajor)
  const char* env;      // "NUMCU_CUBLAS": a path that comes before the search
  const char* wheel;    // "cublas": NVIDIA's CUDA 12 wheels keep it in nvidia/<wheel>/lib
  const char* pip;      // "nvidia-cublas": what to install
  const char* purpose;  // "floating-point matrix products on the GPU need it"
};

class VendorLibrary {
 public:
  explicit VendorLibrary(const VendorLibrarySpec& spec) : spec_(spec) {}
  VendorLibrary(const VendorLibrary&) = delete;
  VendorLibrary& operator=(const VendorLibrary&) = delete;

  // Loads the library on the first call and returns where it was found. The caller holds the
  // GIL (the search reads sys.path). A std::runtime_error (Python's RuntimeError) starting with
  // `fname` says what to install where it is not found.
  const std::string& open(const char* fname);
  // A function of the opened library, or null where this version of it lacks the symbol.
  void* find(const char* symbol) const;
  // The same, or a RuntimeError naming `fname`, the library's path and the missing function.
  void* require(const char* symbol, const char* fname) const;
  template <class F>
  F function(const char* symbol, const char* fname) const {
    return reinterpret_cast<F>(require(symbol, fname));
  }
  const VendorLibrarySpec& spec() const { return spec_; }

 private:
  VendorLibrarySpec spec_;
  std::mutex lock_;
  void* handle_ = nullptr;
  std::string path_;
};

}  // namespace numcu::python
