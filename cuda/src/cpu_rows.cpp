// The walk over a strided plan's rows for the CPU backend's elementwise loops
// (cpu_elementwise.hpp's walk_rows), one copy per operand count.
#include <cstdint>

#include "cpu_elementwise.hpp"

namespace numcu::cpu {

template <int N>
void walk_rows(const ElementwisePlan<N>& p, std::int64_t begin, std::int64_t end, RowFn fn,
               const void* body) {
  const int last = p.ndim - 1;
  const std::int64_t inner = p.shape[last];
  // A scalar input stays at its value in the plan.
  std::int64_t strides[N][kMaxKernelDims] = {};
  char* base[N];
  for (int i = 0; i < N; ++i) {
    if ((p.scalar_mask >> i) & 1u) {
      base[i] = reinterpret_cast<char*>(const_cast<unsigned char*>(p.scalars[i]));
      continue;
    }
    base[i] = p.data[i];
    for (int d = 0; d <= last; ++d) strides[i][d] = p.strides[i][d];
  }

  // The start of row `begin / inner`, as an odometer over the outer dimensions.
  std::int64_t index[kMaxKernelDims] = {};
  std::int64_t row = begin / inner;
  for (int d = last - 1; d >= 0; --d) {
    index[d] = row % p.shape[d];
    row /= p.shape[d];
  }
  for (int i = 0; i < N; ++i) {
    for (int d = 0; d < last; ++d) base[i] += index[d] * strides[i][d];
  }

  std::int64_t col = begin % inner;
  char* at[N];
  for (std::int64_t done = begin; done < end;) {
    const std::int64_t count = inner - col < end - done ? inner - col : end - done;
    for (int i = 0; i < N; ++i) at[i] = base[i] + col * strides[i][last];
    fn(body, at, count);
    done += count;
    col = 0;
    // Step the outer dimensions like an odometer.
    for (int d = last - 1; d >= 0; --d) {
      for (int i = 0; i < N; ++i) base[i] += strides[i][d];
      if (++index[d] < p.shape[d]) break;
      for (int i = 0; i < N; ++i) base[i] -= strides[i][d] * p.shape[d];
      index[d] = 0;
    }
  }
}

template void walk_rows<2>(const ElementwisePlan<2>&, std::int64_t, std::int64_t, RowFn,
                           const void*);
template void walk_rows<3>(const ElementwisePlan<3>&, std::int64_t, std::int64_t, RowFn,
                           const void*);
template void walk_rows<4>(const ElementwisePlan<4>&, std::int64_t, std::int64_t, RowFn,
                           const void*);

}  // namespace numcu::cpu
