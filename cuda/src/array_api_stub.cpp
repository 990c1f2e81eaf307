// The GPU entry points of sorting.hpp and indexing.hpp in a build without CUDA: never reached
// (placement never picks a GPU there), and raising if they were.
#include "numcu/errors.hpp"
#include "numcu/indexing.hpp"
#include "numcu/sorting.hpp"

namespace numcu {
namespace {

[[noreturn]] void unavailable() {
  throw Error(ErrorKind::cuda_unavailable, "numcu: this build has no CUDA backend");
}

}  // namespace

void sort_cuda(const SortParams&, const void*, void*, Stream) { unavailable(); }
void argsort_cuda(const SortParams&, const void*, std::int64_t*, Stream) { unavailable(); }
void unique_sort_cuda(DType, std::int64_t, const void*, bool, std::int64_t*, void*, std::int64_t*,
                      Stream) {
  unavailable();
}
void unique_fill_cuda(DType, std::int64_t, std::int64_t, const void*, const std::int64_t*,
                      const void*, const std::int64_t*, const UniqueOutputs&, Stream) {
  unavailable();
}
void unique_distinct_cuda(DType, std::int64_t, const void*, void*, std::int64_t*, Stream) {
  unavailable();
}
void unique_distinct_fill_cuda(DType, std::int64_t, const void*, void*, Stream) { unavailable(); }
void searchsorted_cuda(DType, std::int64_t, const void*, std::int64_t, const void*, bool,
                       std::int64_t*, Stream) {
  unavailable();
}
void gather_cuda(const GatherPlan&, Stream) { unavailable(); }
void scatter_cuda(const GatherPlan&, Stream) { unavailable(); }
void count_true_cuda(std::int64_t, const bool*, std::int64_t*, Stream) { unavailable(); }
void nonzero_cuda(const NonzeroPlan&, const bool*, const std::int64_t*, std::int64_t*, Stream) {
  unavailable();
}
void matmul_exact_cuda(DType, const MatmulPlan&, Stream) { unavailable(); }

}  // namespace numcu
