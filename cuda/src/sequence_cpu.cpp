// numcu.arange and numcu.linspace on the CPU: the sequence, element by element, split over
// threads (each element is computed from its index alone).
#include "cpu_parallel.hpp"
#include "numcu/launch_check.hpp"
#include "numcu/sequence.hpp"

namespace numcu {

void sequence_cpu(DType dtype, const SequenceParams& p, void* out) {
  check_launch(p, out, itemsize(dtype));
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto s = sequence::Sequence<T>::from(p);
    T* values = static_cast<T*>(out);
    cpu::parallel_for_elements<0>(p.n, cpu::kGrainElementwise,
                                  [&](std::int64_t begin, std::int64_t end) {
                                    for (std::int64_t i = begin; i < end; ++i) values[i] = s(i);
                                  });
  });
}

}  // namespace numcu
