// How the CPU backend splits a loop over threads and picks its vector instructions at run time.
//
// Threads: OpenMP (GCC's libgomp). A loop of n elements runs on a team of at most n / grain
// threads, at most get_num_threads() of them, which share it out in contiguous parts (a few a
// thread, taken in turn by whichever thread is free: run_parts); below two grains it runs on
// the calling thread without touching OpenMP at all, so small arrays pay nothing.
// The split only decides which thread computes which elements: every element, and every
// reduction's order of combination, is the same whatever the number of threads.
//
// Vector instructions: the hot loops are compiled for AVX-512, AVX2 and the x86-64 baseline
// (loops bound by memory bandwidth: AVX2 and the baseline only, as AVX-512 gains them nothing,
// but for float arithmetic; cpu_elementwise.hpp's clone_count) and the dynamic loader picks one
// for the CPU (GCC's target_clones).
// -ffp-contract=off keeps a * b + c two roundings in every clone, as in NumPy's loops.
#pragma once

#include <cstdint>

#include "numcu/cpu_threads.hpp"

// GCC 12 is the first to know the x86-64 levels in __builtin_cpu_supports.
#if defined(__x86_64__) && defined(__linux__) && !defined(__clang__) && __GNUC__ >= 12
#define NUMCU_CPU_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#define NUMCU_CPU_CLONES_AVX2 __attribute__((target_clones("arch=x86-64-v3", "default")))
#define NUMCU_CPU_HAS_CLONES 1
#else
#define NUMCU_CPU_CLONES
#define NUMCU_CPU_CLONES_AVX2
#define NUMCU_CPU_HAS_CLONES 0
#endif

namespace numcu::cpu {

// The team for `work` elements split into parts of at least `grain`: 1 (run on the calling
// thread) or more.
int team_size(std::int64_t work, std::int64_t grain);

// The instruction set the cloned loops run with on this CPU ("x86-64-v4", "x86-64-v3",
// "baseline").
const char* simd_level();

// Part t of [0, n) split into `parts`, its boundaries rounded down to a multiple of `align`.
inline std::int64_t part_begin(std::int64_t n, int t, int parts, std::int64_t align) {
  if (t >= parts) return n;
  const std::int64_t q = n / parts, r = n % parts;
  const std::int64_t b = q * t + r * t / parts;
  return b - b % align;
}

// Parts a thread of a team takes on average (run_parts).
constexpr int kPartsPerThread = 4;

// fn(body, begin, end) over [0, n) on `team` (at least 2) threads, as run_parts says; one
// function for every loop (cpu_threads.cpp), so the module holds one OpenMP region, not one for
// each of the loops' hundreds of instantiations. Rethrows the first exception a part threw.
using PartFn = void (*)(const void* body, std::int64_t begin, std::int64_t end);
void run_team(int team, std::int64_t n, std::int64_t align, PartFn fn, const void* body);

// body(begin, end) over [0, n) on `team` threads. The range is cut into about
// kPartsPerThread * team parts, their boundaries multiples of `align`, and each thread takes the
// next part not yet taken until none is left. A thread that runs slowly (its CPU shared with
// other work, on a virtual machine its virtual CPU not running) then holds the call for one
// part, not for a whole thread's share.
// body(begin, end), out of line: the one copy of a loop's body, whichever the team.
template <class Body>
__attribute__((noinline)) void run_part(const void* body, std::int64_t begin, std::int64_t end) {
  (*static_cast<const Body*>(body))(begin, end);
}

template <class Body>
void run_parts(int team, std::int64_t n, std::int64_t align, const Body& body) {
  if (team <= 1) {
    run_part<Body>(&body, 0, n);
    return;
  }
  run_team(team, n, align, &run_part<Body>, &body);
}

// body(begin, end) over [0, n) of items (outputs, runs, subtrees), in parts of at least
// `grain`, on at most `max_team` threads.
template <class Body>
void parallel_for(std::int64_t n, std::int64_t grain, const Body& body,
                  int max_team = kMaxThreads) {
  int team = team_size(n, grain);
  if (team > max_team) team = max_team;
  run_parts(team, n, 1, body);
}

// body(begin, end) over the elements [0, n) of an elementwise loop: parts begin on multiples of
// 64 elements (a cache line of the narrowest type), so that no two threads write to one line.
//
// With Block > 0, each call of body covers one block of a grid of Block elements that
// depends on n alone (the last block may be shorter). Loops that call glibc's vector math need
// it: a vectorised loop computes its last n % width elements with the scalar function, whose
// last bit can differ from the vector one's, so an element's value would otherwise depend on
// where the threads' parts begin.
template <std::int64_t Block, class Body>
void parallel_for_elements(std::int64_t n, std::int64_t grain, const Body& body) {
  const int team = team_size(n, grain);
  if constexpr (Block <= 0) {
    run_parts(team, n, 64, body);
  } else {
    run_parts(team, n, Block, [&](std::int64_t begin, std::int64_t end) {
      for (std::int64_t b = begin; b < end; b += Block) body(b, end - b < Block ? end : b + Block);
    });
  }
}

}  // namespace numcu::cpu
