// numcu.random's GPU entry point in a build without CUDA: never reached (placement never picks a
// GPU there), and raising if it were.
#include "numcu/distributions.hpp"
#include "numcu/errors.hpp"

namespace numcu::random {

void random_cuda(Distribution, DType, const Plan&, void*, Stream) {
  throw Error(ErrorKind::cuda_unavailable, "numcu: this build has no CUDA backend");
}

void candidates_cuda(const Plan&, const Candidates&, std::uint64_t*, std::int64_t*, void*, Stream) {
  throw Error(ErrorKind::cuda_unavailable, "numcu: this build has no CUDA backend");
}
std::size_t candidates_scratch_bytes(const Plan&) { return 0; }

}  // namespace numcu::random
