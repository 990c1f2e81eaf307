// numcu.arange and numcu.linspace on the CPU: the sequence, element by element.
#include "numcu/launch_check.hpp"
#include "numcu/sequence.hpp"

namespace numcu {

void sequence_cpu(DType dtype, const SequenceParams& p, void* out) {
  check_launch(p, out, itemsize(dtype));
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto s = sequence::Sequence<T>::from(p);
    T* values = static_cast<T*>(out);
    for (std::int64_t i = 0; i < p.n; ++i) values[i] = s(i);
  });
}

}  // namespace numcu
