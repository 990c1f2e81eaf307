#include "vendor_library.hpp"

#include <pybind11/pybind11.h>

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "numcu/errors.hpp"
#include "numcu/runtime.hpp"

#if NUMCU_WITH_CUDA
#include <dlfcn.h>
#endif

namespace numcu::python {

namespace py = pybind11;

#if NUMCU_WITH_CUDA

const std::string& VendorLibrary::open(const char* fname) {
  std::lock_guard<std::mutex> guard(lock_);
  if (handle_ != nullptr) return path_;
  const std::string name = spec_.stem + std::to_string(spec_.major);
  const std::string cuda_major = std::to_string(cuda::runtime_version() / 1000);
  std::vector<std::string> candidates;
  if (const char* env = std::getenv(spec_.env)) candidates.emplace_back(env);
  candidates.push_back(name);
  // NVIDIA's wheels on sys.path: nvidia/<library>/lib (CUDA 12) and nvidia/cu13/lib (CUDA 13).
  for (py::handle p : py::module_::import("sys").attr("path")) {
    const std::string dir = py::str(p).cast<std::string>();
    candidates.push_back(dir + "/nvidia/" + spec_.wheel + "/lib/" + name);
    candidates.push_back(dir + "/nvidia/cu" + cuda_major + "/lib/" + name);
  }
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
    if (const char* root = std::getenv(var)) {
      candidates.push_back(std::string(root) + "/lib64/" + name);
    }
  }
  candidates.push_back("/usr/local/cuda/lib64/" + name);
  for (const std::string& c : candidates) {
    if (void* h = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      path_ = c;
      handle_ = h;
      return path_;
    }
  }
  // NVIDIA's wheels of CUDA 12's libraries are named nvidia-cublas-cu12 and so on, CUDA 13's
  // nvidia-cublas (whose libcublas.so.13 a CUDA 12 build cannot use).
  const std::string pip = spec_.pip + std::string(cuda_major == "12" ? "-cu12" : "");
  throw std::runtime_error(std::string(fname) + ": " + spec_.name + " (" + name +
                           ") was not found; " + spec_.purpose + ": install the CUDA toolkit's " +
                           spec_.name + " or NVIDIA's wheel (pip install " + pip + "), or set " +
                           spec_.env + " to the library's path");
}

void* VendorLibrary::find(const char* symbol) const {
  return handle_ == nullptr ? nullptr : dlsym(handle_, symbol);
}

#else

const std::string& VendorLibrary::open(const char* fname) {
  throw Error(ErrorKind::cuda_unavailable, std::string(fname) +
                                               ": this numcu was built without its CUDA backend "
                                               "(no " +
                                               spec_.name + ")");
}

void* VendorLibrary::find(const char*) const { return nullptr; }

#endif

void* VendorLibrary::require(const char* symbol, const char* fname) const {
  void* f = find(symbol);
  if (f == nullptr) {
    throw std::runtime_error(std::string(fname) + ": " + path_ + " lacks " + symbol +
                             ", one of the " + spec_.name + " functions numcu uses");
  }
  return f;
}

}  // namespace numcu::python
