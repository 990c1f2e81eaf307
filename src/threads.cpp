// numcu.set_num_threads, numcu.get_num_threads and numcu.threading_info: the CPU backend's
// threads (cuda/include/numcu/cpu_threads.hpp).
#include <pybind11/pybind11.h>

#include <string>

#include "numcu/cpu_threads.hpp"

namespace py = pybind11;

namespace numcu::python {

void bind_threads(py::module_& m) {
  m.def(
      "set_num_threads",
      [](py::handle n) {
        const char* fname = "numcu.set_num_threads";
        // Any integer (NumPy's too, through __index__), but not bool.
        if (PyBool_Check(n.ptr()) || !PyIndex_Check(n.ptr())) {
          throw py::type_error(std::string(fname) + ": the number of threads must be an int, got " +
                               Py_TYPE(n.ptr())->tp_name);
        }
        const py::int_ index = py::reinterpret_steal<py::int_>(PyNumber_Index(n.ptr()));
        if (!index) throw py::error_already_set();
        int overflow = 0;
        const long long value = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
        if (overflow != 0 || value < 1 || value > cpu::kMaxThreads) {
          throw py::value_error(std::string(fname) + ": the number of threads must be from 1 to " +
                                std::to_string(cpu::kMaxThreads) + ", got " +
                                py::str(index).cast<std::string>());
        }
        cpu::set_num_threads(static_cast<int>(value));
      },
      py::arg("n"), R"doc(
Set the number of threads the CPU backend splits its work over.

Parameters
----------
n : int
    From 1 to 1024. It replaces NUMCU_NUM_THREADS and the default for the whole process.

Notes
-----
Arrays too small to gain from threads run on the calling thread whatever `n` is. Results do not
depend on `n`: elementwise functions compute each element alike, and reductions combine their
partial results in one fixed order (NumPy's pairwise order for sums).
)doc");
  m.def("get_num_threads", &cpu::get_num_threads, R"doc(
The number of threads the CPU backend splits its work over.

It is, first to last: the value given to numcu.set_num_threads; the environment variable
NUMCU_NUM_THREADS; OMP_NUM_THREADS; the CPUs this process may run on (OpenMP's default where
OpenMP runs the threads, which also follows threadpoolctl's limits). In a forked child process
it is 1, whatever was set (threads do not survive a fork;
start workers with multiprocessing's "spawn" or "forkserver" methods for threads in each).
Raises ValueError while NUMCU_NUM_THREADS is not a whole number from 1 to 1024 and
set_num_threads has not been called.
)doc");
  m.def(
      "threading_info",
      [] {
        using namespace py::literals;
        const cpu::ThreadingInfo info = cpu::threading_info();
        py::dict grains("elementwise"_a = cpu::kGrainElementwise, "costly"_a = cpu::kGrainCostly,
                        "float32_function"_a = cpu::kGrainSingleFunction,
                        "complex_function"_a = cpu::kGrainComplexFunction,
                        "reduction"_a = cpu::kGrainReduce);
        return py::dict("layer"_a = info.layer, "library"_a = info.library,
                        "num_threads"_a = info.num_threads, "source"_a = info.source,
                        "simd"_a = info.simd, "grain"_a = grains);
      },
      R"doc(
How the CPU backend runs: a dict with

- ``layer``: "openmp" (GCC's OpenMP runtime; ``library`` is its file), or "threads" (numcu's
  own, in a build without OpenMP such as a manylinux wheel's, which ships no OpenMP runtime);
- ``num_threads`` (as get_num_threads) and ``source``: "set_num_threads", "NUMCU_NUM_THREADS",
  "OpenMP", "OMP_NUM_THREADS", "available CPUs" or "forked child";
- ``simd``: the instruction set its vectorised loops run with on this CPU ("x86-64-v4" is
  AVX-512, "x86-64-v3" AVX2);
- ``grain``: elements per thread below which a loop is not split, for memory-bound elementwise
  loops, costly ones (float functions, integer division), reductions, and two kinds of unary
  float function apart from the other costly loops: those computed in float32 (float16,
  bfloat16 and float32 data) and those of complex numbers.
)doc");
}

}  // namespace numcu::python
