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
#if defined(__linux__)
#include <sched.h>
#endif
#if NUMCU_CPU_OPENMP
#include <omp.h>
#else
#include <chrono>
#include <condition_variable>
#include <thread>
#include <vector>
#endif

#include "cpu_parallel.hpp"
#include "numcu/errors.hpp"

namespace numcu::cpu {
namespace {

constexpr const char* kEnvName = "NUMCU_NUM_THREADS";

std::atomic<int> g_requested{0};  // set by set_num_threads; 0 until then
std::atomic<bool> g_forked_child{false};

// Runs part t of the parts that split [0, n) at multiples of align. An exception must not leave
// a worker (or an OpenMP region): the first one is kept in error, to be thrown after the join.
void run_part(PartFn fn, const void* body, std::int64_t n, int t, int parts, std::int64_t align,
              std::mutex& mutex, std::exception_ptr& error) {
  const std::int64_t begin = part_begin(n, t, parts, align);
  const std::int64_t end = part_begin(n, t + 1, parts, align);
  try {
    if (begin < end) fn(body, begin, end);
  } catch (...) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!error) error = std::current_exception();
  }
}

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

#if !NUMCU_CPU_OPENMP
// The default without OpenMP: OMP_NUM_THREADS's first number, as OpenMP would take it (so that a
// process's usual setting holds whichever layer runs the threads), else the CPUs this process
// may run on. `source` says which.
struct DefaultThreads {
  int threads = 1;
  const char* source = "available CPUs";
};

DefaultThreads find_default_threads() {
  DefaultThreads d;
  if (const char* omp = std::getenv("OMP_NUM_THREADS")) {
    char* end = nullptr;
    const long value = std::strtol(omp, &end, 10);
    if (end != omp && value >= 1) {
      d.threads = static_cast<int>(value < kMaxThreads ? value : kMaxThreads);
      d.source = "OMP_NUM_THREADS";
      return d;
    }
  }
#if defined(__linux__)
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    d.threads = CPU_COUNT(&set);
  } else {
    d.threads = static_cast<int>(std::thread::hardware_concurrency());
  }
#else
  d.threads = static_cast<int>(std::thread::hardware_concurrency());
#endif
  d.threads = d.threads < 1 ? 1 : d.threads > kMaxThreads ? kMaxThreads : d.threads;
  return d;
}

const DefaultThreads& default_threads() {
  static const DefaultThreads d = find_default_threads();
  return d;
}

// numcu's own threads (a build without OpenMP, such as a manylinux wheel's: no OpenMP runtime to
// ship). Workers start at the first split loop that needs them and live as long as the process.
// A loop is one job at a time: the calling thread publishes it, takes parts itself, and waits for
// the workers that joined; a call that finds the pool busy (another Python thread's loop, or a
// loop inside a part) runs its parts on its own thread, which gives the same results.
// Between jobs a worker spins for a short while before it sleeps, as OpenMP's do, so that
// back-to-back loops do not pay a wake-up each.
class Pool {
 public:
  bool run(int team, int parts, std::int64_t n, std::int64_t align, PartFn fn, const void* body,
           std::exception_ptr& error) {
    std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
    if (!busy.owns_lock()) return false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      while (static_cast<int>(workers_.size()) < team - 1) {
        workers_.emplace_back([this] { work(); });
      }
      job_ = Job{fn, body, n, align, parts, team - 1, 0, true};
      next_.store(0, std::memory_order_relaxed);
      error_ = nullptr;
      generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    take_parts(fn, body, n, align, parts);
    std::unique_lock<std::mutex> lock(mutex_);
    job_.open = false;  // no worker joins after this
    done_.wait(lock, [this] { return active_ == 0; });
    error = error_;
    return true;
  }

 private:
  struct Job {
    PartFn fn = nullptr;
    const void* body = nullptr;
    std::int64_t n = 0;
    std::int64_t align = 1;
    int parts = 0;
    int helpers = 0;  // workers wanted
    int joined = 0;
    bool open = false;
  };

  void take_parts(PartFn fn, const void* body, std::int64_t n, std::int64_t align, int parts) {
    for (int t = next_.fetch_add(1, std::memory_order_relaxed); t < parts;
         t = next_.fetch_add(1, std::memory_order_relaxed)) {
      run_part(fn, body, n, t, parts, align, mutex_, error_);
    }
  }

  void work() {
    std::uint64_t seen = generation_.load(std::memory_order_acquire);
    for (;;) {
      // Spin up to ~50 us for the next job, then sleep until one is published.
      const auto spin_end = std::chrono::steady_clock::now() + std::chrono::microseconds(50);
      for (int i = 0; generation_.load(std::memory_order_acquire) == seen; ++i) {
        if ((i & 63) == 63 && std::chrono::steady_clock::now() > spin_end) break;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
      }
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return generation_.load(std::memory_order_relaxed) != seen; });
      seen = generation_.load(std::memory_order_relaxed);
      if (!job_.open || job_.joined >= job_.helpers) continue;
      ++job_.joined;
      ++active_;
      const Job job = job_;
      lock.unlock();
      take_parts(job.fn, job.body, job.n, job.align, job.parts);
      lock.lock();
      if (--active_ == 0) done_.notify_one();
    }
  }

  std::mutex busy_;   // held by the thread whose job the pool runs
  std::mutex mutex_;  // guards job_, active_, error_ and the workers' list
  std::condition_variable wake_;
  std::condition_variable done_;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<int> next_{0};
  Job job_;
  int active_ = 0;
  std::exception_ptr error_;
  std::vector<std::thread> workers_;
};

// Never destroyed: its threads wait for work until the process ends.
Pool& pool() {
  static Pool* p = new Pool();
  return *p;
}
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
  return default_threads().threads;
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
  const std::int64_t units = (n + align - 1) / align;
  const std::int64_t most = static_cast<std::int64_t>(team) * kPartsPerThread;
  const int parts = static_cast<int>(units < most ? units : most);
  std::exception_ptr error;
#if NUMCU_CPU_OPENMP
  std::mutex error_mutex;
#pragma omp parallel num_threads(team)
  {
#pragma omp for schedule(dynamic, 1) nowait
    for (int t = 0; t < parts; ++t) run_part(fn, body, n, t, parts, align, error_mutex, error);
  }
  if (error) std::rethrow_exception(error);
#else
  if (!pool().run(team, parts, n, align, fn, body, error)) {
    // The pool is busy: the same parts, in order, on this thread.
    for (int t = 0; t < parts; ++t) {
      const std::int64_t begin = part_begin(n, t, parts, align);
      const std::int64_t end = part_begin(n, t + 1, parts, align);
      if (begin < end) fn(body, begin, end);
    }
  }
  if (error) std::rethrow_exception(error);
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
  info.layer = "threads";
#endif
  info.num_threads = get_num_threads();
  if (g_forked_child.load(std::memory_order_relaxed)) {
    info.source = "forked child";
  } else if (g_requested.load(std::memory_order_relaxed) > 0) {
    info.source = "set_num_threads";
  } else if (environment().threads > 0) {
    info.source = kEnvName;
  } else {
#if NUMCU_CPU_OPENMP
    info.source = "OpenMP";
#else
    info.source = default_threads().source;
#endif
  }
  info.simd = simd_level();
  return info;
}

}  // namespace numcu::cpu
