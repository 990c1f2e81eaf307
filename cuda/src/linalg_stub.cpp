// numcu/linalg.hpp's launchers in a build without CUDA: no device arrays exist there, so nothing
// reaches them; they raise should anything try.
#include "numcu/errors.hpp"
#include "numcu/linalg.hpp"

namespace numcu::linalg {
namespace {
[[noreturn]] void unavailable() {
  throw Error(ErrorKind::cuda_unavailable, "numcu.linalg: this numcu was built without CUDA");
}
}  // namespace

void small_lu_cuda(DType, const SmallLu&, Stream) { unavailable(); }
void lu_det_cuda(DType, const LuDet&, Stream) { unavailable(); }
void pointer_array_cuda(void**, char*, std::int64_t, std::int64_t, Stream) { unavailable(); }
void zero_triangle_cuda(DType, char*, std::int64_t, std::int64_t, std::int64_t, std::int64_t, bool,
                        Stream) {
  unavailable();
}
void identity_cuda(DType, char*, std::int64_t, std::int64_t, Stream) { unavailable(); }
void info_max_cuda(const int*, std::int64_t, int*, Stream) { unavailable(); }
void zero_cuda(char*, std::size_t, Stream) { unavailable(); }
void scale_cuda(DType, char*, std::int64_t, double, Stream) { unavailable(); }
void conjugate_cuda(DType, char*, std::int64_t, Stream) { unavailable(); }

}  // namespace numcu::linalg
