// numcu.random's GPU entry point in a build without CUDA: never reached (placement never picks a
// GPU there), and raising if it were.
#include "numcu/distributions.hpp"
#include "numcu/errors.hpp"

namespace numcu::random {

void random_cuda(Distribution, DType, const Plan&, void*, Stream) {
  throw Error(ErrorKind::cuda_unavailable, "numcu: this build has no CUDA backend");
}

}  // namespace numcu::random
