// numcu's C++ exceptions. The bindings turn each kind into the Python exception design.md
// names; the kernels and the CPU backend never print or exit.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace numcu {

enum class ErrorKind {
  type_error,        // TypeError: unsupported dtype, no loop, unsafe cast
  value_error,       // ValueError: shapes, devices, malformed interfaces
  overflow_error,    // OverflowError: a Python integer that does not fit the dtype
  cuda_error,        // numcu.cuda.CUDAError (RuntimeError)
  out_of_memory,     // numcu.cuda.OutOfMemoryError (MemoryError)
  cuda_unavailable,  // numcu.cuda.CUDAUnavailableError (RuntimeError)
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& what, std::size_t nbytes = 0)
      : std::runtime_error(what), kind_(kind), nbytes_(nbytes) {}
  ErrorKind kind() const noexcept { return kind_; }
  std::size_t nbytes() const noexcept { return nbytes_; }

 private:
  ErrorKind kind_;
  std::size_t nbytes_;
};

[[noreturn]] inline void throw_type_error(const std::string& what) {
  throw Error(ErrorKind::type_error, what);
}
[[noreturn]] inline void throw_value_error(const std::string& what) {
  throw Error(ErrorKind::value_error, what);
}

}  // namespace numcu
