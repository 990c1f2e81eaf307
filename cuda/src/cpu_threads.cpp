// The CPU backend's thread settings (cpu_threads.hpp) and the team size of each split loop.
#include "numcu/cpu_threads.hpp"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>

#if defined(__unix__)
#include <dlfcn.h>
#include <pthread.h>
#endif
#if NUMCU_CPU_OPENMP
#include <omp.h>
#endif

#include "cpu_parallel.hpp"
#include "numcu/errors.hpp"

namespace numcu::cpu {
namespace {

constexpr const char* kEnvName = "NUMCU_NUM_THREADS";

std::atomic<int> g_requested{0};  // set by set_num_threads; 0 until then
std::atomic<bool> g_forked_child{false};

struct EnvSetting {
  int threads = 0;    // 0: not set
  std::string error;  // why the value was refused
};

EnvSetting parse_environment() {
  EnvSetting s;
  const char* text = std::getenv(kEnvName);
  if (text == nullptr || *text == '\0') return s;  // set but empty: as if unset
  char* end = nullptr;
  errno = 0;
  const long value = std::strtol(text, &end, 10);
  while (end != nullptr && (*end == ' ' || *end == '\t' || *end == '\n')) ++end;
  if (end == text || *end != '\0' || errno != 0 || value < 1 || value > kMaxThreads) {
    s.error = std::string("numcu: the environment variable ") + kEnvName + "='" + text +
              "' is not a whole number from 1 to " + std::to_string(kMaxThreads);
    return s;
  }
  s.threads = static_cast<int>(value);
  return s;
}

const EnvSetting& environment() {
  static const EnvSetting s = parse_environment();
  return s;
}

void after_fork_in_child() { g_forked_child.store(true, std::memory_order_relaxed); }

// GNU OpenMP keeps a thread's team across a fork, and a child that starts a parallel region
// waits forever for threads that were not forked. Any library using the same runtime (PyTorch
// may) can have started one, so a forked child always runs on one thread.
#if defined(__unix__)
[[maybe_unused]] const int g_atfork_registered =
    pthread_atfork(nullptr, nullptr, &after_fork_in_child);
#endif

}  // namespace

int get_num_threads() {
  const int requested = g_requested.load(std::memory_order_relaxed);
  const EnvSetting& env = environment();
  if (requested == 0 && !env.error.empty()) throw_value_error(env.error);
  if (g_forked_child.load(std::memory_order_relaxed)) return 1;
  if (requested > 0) return requested;
  if (env.threads > 0) return env.threads;
#if NUMCU_CPU_OPENMP
  const int n = omp_get_max_threads();
  return n < 1 ? 1 : n > kMaxThreads ? kMaxThreads : n;
#else
  return 1;
#endif
}

void set_num_threads(int n) {
  if (n < 1 || n > kMaxThreads) {
    throw_value_error("numcu.set_num_threads: the number of threads must be from 1 to " +
                      std::to_string(kMaxThreads) + ", got " + std::to_string(n));
  }
  g_requested.store(n, std::memory_order_relaxed);
}

void run_team(int team, std::int64_t n, std::int64_t align, PartFn fn, const void* body) {
#if NUMCU_CPU_OPENMP
  const std::int64_t units = (n + align - 1) / align;
  const std::int64_t most = static_cast<std::int64_t>(team) * kPartsPerThread;
  const int parts = static_cast<int>(units < most ? units : most);
  std::exception_ptr error;
  std::mutex error_mutex;
#pragma omp parallel num_threads(team)
  {
#pragma omp for schedule(dynamic, 1) nowait
    for (int t = 0; t < parts; ++t) {
      const std::int64_t begin = part_begin(n, t, parts, align);
      const std::int64_t end = part_begin(n, t + 1, parts, align);
      // An exception must not leave an OpenMP region: it is kept and thrown after the join.
      try {
        if (begin < end) fn(body, begin, end);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
      }
    }
  }
  if (error) std::rethrow_exception(error);
#else
  (void)team;
  (void)align;
  fn(body, 0, n);
#endif
}

int team_size(std::int64_t work, std::int64_t grain) {
  const std::int64_t by_work = work / grain;
  if (by_work < 2) {
    // A bad NUMCU_NUM_THREADS is reported by every call, not only by those big enough to split.
    if (g_requested.load(std::memory_order_relaxed) == 0 && !environment().error.empty()) {
      throw_value_error(environment().error);
    }
    return 1;
  }
#if NUMCU_CPU_OPENMP
  // A loop started on a thread of a team (a fused program's block) runs on that thread.
  if (omp_in_parallel()) return 1;
#endif
  const int threads = get_num_threads();
  const int team = by_work < threads ? static_cast<int>(by_work) : threads;
  return team;
}

const char* simd_level() {
#if NUMCU_CPU_HAS_CLONES
  __builtin_cpu_init();
  if (__builtin_cpu_supports("x86-64-v4")) return "x86-64-v4";
  if (__builtin_cpu_supports("x86-64-v3")) return "x86-64-v3";
  return "x86-64";
#else
  return "compiler default";
#endif
}

ThreadingInfo threading_info() {
  ThreadingInfo info;
#if NUMCU_CPU_OPENMP
  info.layer = "openmp";
#if defined(__unix__)
  Dl_info where;
  if (dladdr(reinterpret_cast<void*>(&omp_get_max_threads), &where) != 0 &&
      where.dli_fname != nullptr) {
    info.library = where.dli_fname;
  }
#endif
#else
  info.layer = "serial";
#endif
  info.num_threads = get_num_threads();
  if (g_forked_child.load(std::memory_order_relaxed)) {
    info.source = "forked child";
  } else if (g_requested.load(std::memory_order_relaxed) > 0) {
    info.source = "set_num_threads";
  } else if (environment().threads > 0) {
    info.source = kEnvName;
  } else {
    info.source = info.layer == "openmp" ? "OpenMP" : "serial build";
  }
  info.simd = simd_level();
  return info;
}

}  // namespace numcu::cpu
