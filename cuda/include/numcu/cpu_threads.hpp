// The CPU backend's threads: how many it uses, where that number comes from, and the sizes
// below which it stays on the calling thread.
//
// The number is, first to last: the value given to set_num_threads; the environment variable
// NUMCU_NUM_THREADS, read once; OpenMP's own default (OMP_NUM_THREADS, else the CPUs of the
// process's affinity mask, and what omp_set_num_threads or threadpoolctl set on the calling
// thread), or in a build on numcu's own threads (no OpenMP, as a manylinux wheel is)
// OMP_NUM_THREADS's first number, else the CPUs of the affinity mask. In a forked child process
// it is 1: OpenMP's threads do not survive a fork, and GNU
// OpenMP waits for them forever once a team was started in the parent, by numcu or by any other
// library on the same runtime.
#pragma once

#include <cstdint>
#include <string>

namespace numcu::cpu {

// The most threads set_num_threads and NUMCU_NUM_THREADS accept.
constexpr int kMaxThreads = 1024;

// Elements per thread below which a loop is not split, by the work one element costs: loops
// bounded by memory bandwidth (arithmetic, comparisons, casts, copies), loops of float
// functions (sin, exp, power, complex arithmetic, integer division), and reductions.
constexpr std::int64_t kGrainElementwise = std::int64_t{1} << 15;
constexpr std::int64_t kGrainCostly = std::int64_t{1} << 12;
constexpr std::int64_t kGrainReduce = std::int64_t{1} << 16;
// Among the costly loops, unary float functions split by their cost an element. Computed in
// float32 (float16, bfloat16 and float32 data), exp, log or sin cost 0.5 to 1 ns on one core:
// a team of 16 threads made exp and log 1.15 to 1.3x slower than one thread at 2^13 and 2^14
// elements, and paid only where one thread took 10 us or more. Of complex numbers they cost
// tens of ns (complex64 sin: 34), and a team pays from about 2^10 elements.
constexpr std::int64_t kGrainSingleFunction = std::int64_t{1} << 14;
constexpr std::int64_t kGrainComplexFunction = std::int64_t{1} << 10;

// The threads the next call splits its work over (at least 1). Throws value_error while
// NUMCU_NUM_THREADS is set to anything but a whole number from 1 to kMaxThreads and
// set_num_threads has not been called; so does every loop of the CPU backend.
int get_num_threads();
// Throws value_error, naming numcu.set_num_threads, unless 1 <= n <= kMaxThreads.
void set_num_threads(int n);

struct ThreadingInfo {
  std::string layer;    // "openmp", or "threads": numcu's own, in a build without OpenMP
  std::string library;  // the OpenMP runtime's file, where it can be found
  int num_threads = 1;
  std::string source;  // "set_num_threads", "NUMCU_NUM_THREADS", "OpenMP" or "forked child"
  std::string simd;    // the instruction set the vectorised loops run with here
};
ThreadingInfo threading_info();

}  // namespace numcu::cpu
