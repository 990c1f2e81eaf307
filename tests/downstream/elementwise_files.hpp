// File handling shared by the downstream programs: for each dtype named on the command line,
// DIR/<dtype>.x and DIR/<dtype>.y in, DIR/<dtype>.add and DIR/<dtype>.multiply out, raw bytes.
#pragma once

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <numcu/dtype.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace downstream {

inline numcu::DType dtype_named(const std::string& name) {
  for (int i = 0; i < numcu::kNumDTypes; ++i) {
    const auto dtype = static_cast<numcu::DType>(i);
    if (name == numcu::dtype_name(dtype)) return dtype;
  }
  throw std::invalid_argument("no numcu dtype named " + name);
}

inline std::vector<char> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_bytes(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path);
}

// Calls run(type_tag<T>, x, y, sum, product) for each dtype argument (argv[2..]), with
// sum and product sized like x, and writes them out.
template <class Run>
int for_each_dtype(int argc, char** argv, Run&& run) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s DIR DTYPE...\n", argv[0]);
    return 2;
  }
  try {
    for (int a = 2; a < argc; ++a) {
      const std::string stem = std::string(argv[1]) + "/" + argv[a];
      const numcu::DType dtype = dtype_named(argv[a]);
      const std::vector<char> x = read_bytes(stem + ".x"), y = read_bytes(stem + ".y");
      if (x.size() != y.size() || x.size() % numcu::itemsize(dtype) != 0) {
        throw std::runtime_error(stem + ": x and y differ in size");
      }
      std::vector<char> sum(x.size()), product(x.size());
      numcu::visit_dtype(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (sizeof(T) != static_cast<std::size_t>(numcu::itemsize(dtype))) {
          throw std::runtime_error(stem + ": itemsize differs from sizeof");
        }
        run(tag, x, y, sum, product);
      });
      write_bytes(stem + ".add", sum);
      write_bytes(stem + ".multiply", product);
      std::printf("%s %zu\n", argv[a], x.size() / numcu::itemsize(dtype));
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    return 1;
  }
  return 0;
}

}  // namespace downstream
