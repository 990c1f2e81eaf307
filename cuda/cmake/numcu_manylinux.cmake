# A module for a manylinux wheel (NUMCU_MANYLINUX=ON; .ci/build_wheel.py sets it).
#
# A wheel's tag says which glibc it needs at least: the newest symbol version it references.
# Built as usual on a current distribution the module needed glibc 2.35 and the system's
# libstdc++ and libgomp. Here, for NUMCU_GLIBC_BASELINE (2.28, the glibc of RHEL 8, the oldest
# distribution CUDA 13 supports):
#
# - libstdc++ is linked in (-static-libstdc++; its archive is position-independent) and stays
#   private to the module (--exclude-libs,ALL, src/CMakeLists.txt). libgcc_s stays a shared
#   library (every system has it, and manylinux allows it): linked in, GCC 12's unwinder would
#   call _dl_find_object (glibc 2.35), with no fallback. But GCC's helpers that came after GCC
#   7's libgcc_s (GCC 12's _Float16 conversions, which the float16 loops call) are taken from
#   libgcc.a, named after the module's objects so that they resolve there first.
# - glibc's functions that got a new symbol version after the baseline, while the old version
#   still exists (every function moved from libpthread, libdl and librt into libc in 2.34; exp,
#   log, pow and kin, whose versions 2.27 and 2.29 only dropped the SVID error wrappers; hypot's
#   2.35), are bound to the old version: the linker's --wrap sends every reference to X, from
#   numcu's code and from the static archives (libstdc++, cudart_static) alike, to __wrap_X, a
#   jump to X@<old version> (.symver). libpthread, libdl and librt are named as needed, as they
#   hold those functions before 2.34.
# - __libc_single_threaded (2.32) has no older version: libstdc++'s reference counts read it to
#   skip atomic operations in a process with one thread. The module defines its own, always 0
#   ("maybe several threads"), which keeps every count atomic. arc4random (2.36; libstdc++'s
#   random_device) has none either: the module's __wrap_arc4random draws from getrandom (2.25).
#   stat, fstat, lstat, fstatat and their 64-bit names became functions in 2.33; before, the
#   headers sent them to __xstat and kin, which still exist: the module's wrappers call those.
# - glibc's vector math (libmvec) is used only for the functions it had in 2.22 (sin, cos, exp,
#   log, pow); the others run glibc's scalar functions in the CPU backend's loops
#   (cuda/src/cpu_vector_math.hpp).
# - libgomp cannot come along: the system's needs glibc 2.34 (its own pthread and dl references,
#   which cannot be re-linked), and GCC's libgomp.a is not position-independent. The CPU backend's
#   threads come from numcu's own pool instead (NUMCU_CPU_THREADS=pool, cuda/src/cpu_threads.cpp).
#
# auditwheel then finds nothing to bundle but checks the result; .ci/build_wheel.py prints the
# symbols that still need a newer glibc, if any.
if(NOT CMAKE_SYSTEM_NAME STREQUAL "Linux" OR NOT CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  message(FATAL_ERROR "numcu: NUMCU_MANYLINUX is for x86-64 Linux")
endif()
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  message(FATAL_ERROR "numcu: NUMCU_MANYLINUX needs GCC (its libstdc++.a and libgcc.a)")
endif()

set(NUMCU_CPU_THREADS pool)

# "symbol version [target]": references to `symbol` go to `target` (default: the same name) at
# `version`. glibc 2.2.5 is x86-64's first version.
set(NUMCU_GLIBC_PINS
  # libdl -> libc (2.34)
  "dlopen GLIBC_2.2.5" "dlclose GLIBC_2.2.5" "dlsym GLIBC_2.2.5" "dlerror GLIBC_2.2.5"
  "dladdr GLIBC_2.2.5" "dlvsym GLIBC_2.2.5" "dlmopen GLIBC_2.3.4" "dlinfo GLIBC_2.3.3"
  "dladdr1 GLIBC_2.3.3"
  # libpthread -> libc (2.34)
  "pthread_create GLIBC_2.2.5" "pthread_detach GLIBC_2.2.5" "pthread_join GLIBC_2.2.5"
  "pthread_kill GLIBC_2.2.5" "pthread_getspecific GLIBC_2.2.5" "pthread_setspecific GLIBC_2.2.5"
  "pthread_key_create GLIBC_2.2.5" "pthread_key_delete GLIBC_2.2.5" "pthread_once GLIBC_2.2.5"
  "pthread_mutex_trylock GLIBC_2.2.5" "pthread_mutexattr_init GLIBC_2.2.5"
  "pthread_mutexattr_destroy GLIBC_2.2.5" "pthread_mutexattr_settype GLIBC_2.2.5"
  "pthread_mutexattr_setpshared GLIBC_2.2.5" "pthread_condattr_setpshared GLIBC_2.2.5"
  "pthread_rwlock_init GLIBC_2.2.5" "pthread_rwlock_destroy GLIBC_2.2.5"
  "pthread_rwlock_rdlock GLIBC_2.2.5" "pthread_rwlock_wrlock GLIBC_2.2.5"
  "pthread_rwlock_tryrdlock GLIBC_2.2.5" "pthread_rwlock_trywrlock GLIBC_2.2.5"
  "pthread_rwlock_timedrdlock GLIBC_2.2.5" "pthread_rwlock_timedwrlock GLIBC_2.2.5"
  "pthread_rwlock_unlock GLIBC_2.2.5" "pthread_rwlockattr_init GLIBC_2.2.5"
  "pthread_rwlockattr_destroy GLIBC_2.2.5" "pthread_rwlockattr_setpshared GLIBC_2.2.5"
  "pthread_spin_init GLIBC_2.2.5" "pthread_spin_destroy GLIBC_2.2.5"
  "pthread_spin_lock GLIBC_2.2.5" "pthread_spin_trylock GLIBC_2.2.5"
  "pthread_spin_unlock GLIBC_2.2.5" "pthread_attr_setstacksize GLIBC_2.2.5"
  "pthread_attr_getstacksize GLIBC_2.2.5" "pthread_getattr_np GLIBC_2.2.5"
  "pthread_sigmask GLIBC_2.2.5" "pthread_atfork GLIBC_2.2.5" "pthread_setname_np GLIBC_2.12"
  "sem_init GLIBC_2.2.5" "sem_destroy GLIBC_2.2.5" "sem_post GLIBC_2.2.5" "sem_wait GLIBC_2.2.5"
  "sem_trywait GLIBC_2.2.5" "sem_timedwait GLIBC_2.2.5"
  # librt -> libc (2.34)
  "shm_open GLIBC_2.2.5" "shm_unlink GLIBC_2.2.5"
  "__pthread_key_create GLIBC_2.2.5"
  # libm: new versions without the SVID error wrappers (2.27, 2.29), hypot (2.35)
  "exp GLIBC_2.2.5" "exp2 GLIBC_2.2.5" "log GLIBC_2.2.5" "log2 GLIBC_2.2.5" "pow GLIBC_2.2.5"
  "expf GLIBC_2.2.5" "exp2f GLIBC_2.2.5" "logf GLIBC_2.2.5" "log2f GLIBC_2.2.5"
  "powf GLIBC_2.2.5" "hypot GLIBC_2.2.5" "hypotf GLIBC_2.2.5"
  # glibc 2.38's headers send strtol and kin to C23 versions that also read 0b prefixes
  "__isoc23_strtol GLIBC_2.2.5 strtol" "__isoc23_strtoul GLIBC_2.2.5 strtoul"
  "__isoc23_strtoll GLIBC_2.2.5 strtoll" "__isoc23_strtoull GLIBC_2.2.5 strtoull"
  "__isoc23_sscanf GLIBC_2.2.5 sscanf" "__isoc23_vsscanf GLIBC_2.2.5 vsscanf"
  "__isoc23_fscanf GLIBC_2.2.5 fscanf" "__isoc23_wcstol GLIBC_2.2.5 wcstol"
  "__isoc23_wcstoul GLIBC_2.2.5 wcstoul")

set(_asm "")
set(NUMCU_GLIBC_WRAP_OPTIONS "")
foreach(_pin IN LISTS NUMCU_GLIBC_PINS)
  string(REPLACE " " ";" _pin "${_pin}")
  list(GET _pin 0 _symbol)
  list(GET _pin 1 _version)
  list(LENGTH _pin _n)
  set(_target "${_symbol}")
  if(_n GREATER 2)
    list(GET _pin 2 _target)
  endif()
  list(APPEND NUMCU_GLIBC_WRAP_OPTIONS "LINKER:--wrap=${_symbol}")
  string(APPEND _asm
    "  \".symver numcu_glibc_${_symbol}, ${_target}@${_version}\\n\"\n"
    "  \".globl __wrap_${_symbol}\\n .hidden __wrap_${_symbol}\\n\"\n"
    "  \".type __wrap_${_symbol}, @function\\n\"\n"
    "  \"__wrap_${_symbol}:\\n jmp numcu_glibc_${_symbol}@PLT\\n\"\n")
endforeach()
list(APPEND NUMCU_GLIBC_WRAP_OPTIONS "LINKER:--wrap=arc4random")
foreach(_symbol stat fstat lstat fstatat stat64 fstat64 lstat64 fstatat64)
  list(APPEND NUMCU_GLIBC_WRAP_OPTIONS "LINKER:--wrap=${_symbol}")
endforeach()
set(NUMCU_GLIBC_COMPAT_SOURCE "${CMAKE_BINARY_DIR}/numcu_glibc_compat.cpp")
file(CONFIGURE OUTPUT "${NUMCU_GLIBC_COMPAT_SOURCE}" @ONLY CONTENT
"// Generated by cuda/cmake/numcu_manylinux.cmake: glibc's symbols bound to the versions of glibc \
@NUMCU_GLIBC_BASELINE@ and older.
// NOLINTBEGIN
__asm__(
  \".text\\n\"
@_asm@  \".section .data.numcu_single_threaded,\\\"aw\\\"\\n\"
  \".globl __libc_single_threaded\\n .hidden __libc_single_threaded\\n\"
  \".type __libc_single_threaded, @object\\n .size __libc_single_threaded, 1\\n\"
  \"__libc_single_threaded:\\n .byte 0\\n\"
  \".text\\n\");
// NOLINTEND

#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

// arc4random has no version before glibc 2.36: 32 random bits from the kernel (getrandom, glibc
// 2.25), else from /dev/urandom (kernels before 3.17).
extern \"C\" __attribute__((visibility(\"hidden\"))) std::uint32_t __wrap_arc4random() {
  std::uint32_t value = 0;
  for (;;) {
    const ssize_t got = getrandom(&value, sizeof value, 0);
    if (got == static_cast<ssize_t>(sizeof value)) return value;
    if (got < 0 && errno == EINTR) continue;
    break;
  }
  const int fd = open(\"/dev/urandom\", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    if (read(fd, &value, sizeof value) != static_cast<ssize_t>(sizeof value)) value = 0;
    close(fd);
  }
  return value;
}

// stat and kin, through the functions glibc's headers called before 2.33 (version 1 of struct
// stat: _STAT_VER_LINUX on x86-64, where struct stat and struct stat64 are the same).
extern \"C\" {
int numcu_glibc_xstat(int, const char*, void*);
int numcu_glibc_fxstat(int, int, void*);
int numcu_glibc_lxstat(int, const char*, void*);
int numcu_glibc_fxstatat(int, int, const char*, void*, int);
}
__asm__(\".symver numcu_glibc_xstat, __xstat64@GLIBC_2.2.5\\n\"
        \".symver numcu_glibc_fxstat, __fxstat64@GLIBC_2.2.5\\n\"
        \".symver numcu_glibc_lxstat, __lxstat64@GLIBC_2.2.5\\n\"
        \".symver numcu_glibc_fxstatat, __fxstatat64@GLIBC_2.4\\n\");
#define NUMCU_STAT(name, type)                                                            \\
  extern \"C\" __attribute__((visibility(\"hidden\"))) int __wrap_##name(const char* p, void* b) { \\
    return numcu_glibc_##type(1, p, b);                                                   \\
  }
NUMCU_STAT(stat, xstat)
NUMCU_STAT(stat64, xstat)
NUMCU_STAT(lstat, lxstat)
NUMCU_STAT(lstat64, lxstat)
extern \"C\" __attribute__((visibility(\"hidden\"))) int __wrap_fstat(int fd, void* b) {
  return numcu_glibc_fxstat(1, fd, b);
}
extern \"C\" __attribute__((visibility(\"hidden\"))) int __wrap_fstat64(int fd, void* b) {
  return numcu_glibc_fxstat(1, fd, b);
}
extern \"C\" __attribute__((visibility(\"hidden\"))) int __wrap_fstatat(int d, const char* p, void* b,
                                                                     int flags) {
  return numcu_glibc_fxstatat(1, d, p, b, flags);
}
extern \"C\" __attribute__((visibility(\"hidden\"))) int __wrap_fstatat64(int d, const char* p, void* b,
                                                                       int flags) {
  return numcu_glibc_fxstatat(1, d, p, b, flags);
}
")
set(NUMCU_MANYLINUX_LINK_OPTIONS -static-libstdc++ ${NUMCU_GLIBC_WRAP_OPTIONS}
  "LINKER:--push-state,--no-as-needed" -l:libpthread.so.0 -l:libdl.so.2 -l:librt.so.1
  "LINKER:--pop-state")
set(NUMCU_MANYLINUX_LINK_LIBRARIES -l:libgcc.a)
string(REPLACE "." ";" _baseline "${NUMCU_GLIBC_BASELINE}")
list(GET _baseline 1 NUMCU_GLIBC_BASELINE_MINOR)
message(NOTICE "numcu: a manylinux module: libstdc++ linked in, glibc ${NUMCU_GLIBC_BASELINE}'s "
               "symbol versions, the CPU backend on numcu's own threads")
