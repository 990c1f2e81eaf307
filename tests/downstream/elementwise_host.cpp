// numcu's functors on the host, as the CPU backend runs them.
#include <cstring>
#include <numcu/ops.hpp>
#include <numcu/types.hpp>
#include <vector>

#include "elementwise_files.hpp"

template <class T, class Op>
void apply(const std::vector<char>& x, const std::vector<char>& y, std::vector<char>& out, Op op) {
  using C = numcu::compute_t<T>;
  for (std::size_t i = 0; i < x.size() / sizeof(T); ++i) {
    T a, b;
    std::memcpy(&a, x.data() + i * sizeof(T), sizeof(T));
    std::memcpy(&b, y.data() + i * sizeof(T), sizeof(T));
    const T r = numcu::convert<T>(op(numcu::convert<C>(a), numcu::convert<C>(b)));
    std::memcpy(out.data() + i * sizeof(T), &r, sizeof(T));
  }
}

int main(int argc, char** argv) {
  return downstream::for_each_dtype(
      argc, argv, [](auto tag, const auto& x, const auto& y, auto& sum, auto& product) {
        using T = typename decltype(tag)::type;
        apply<T>(x, y, sum, numcu::ops::Add{});
        apply<T>(x, y, product, numcu::ops::Multiply{});
      });
}
