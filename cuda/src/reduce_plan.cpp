#include <string>
#include <vector>

#include "numcu/errors.hpp"
#include "numcu/reduce.hpp"
#include "numcu/reducers.hpp"

namespace numcu {
namespace {

struct Dim {
  std::int64_t shape;
  std::int64_t in;
  std::int64_t out;
};

// Drops size-1 dimensions and merges neighbours that every side walks as one (C order is kept,
// so linear indices over the dimensions do not change).
std::vector<Dim> collapse(const std::vector<Dim>& dims) {
  std::vector<Dim> r;
  for (const Dim& d : dims) {
    if (d.shape == 1) continue;
    if (!r.empty() && r.back().in == d.in * d.shape && r.back().out == d.out * d.shape) {
      r.back().shape *= d.shape;
      r.back().in = d.in;
      r.back().out = d.out;
    } else {
      r.push_back(d);
    }
  }
  return r;
}

void check_dims(std::size_t n, const char* fname) {
  if (n > static_cast<std::size_t>(kMaxKernelDims)) {
    throw_value_error(std::string(fname) + ": the array has too many non-mergeable dimensions (" +
                      std::to_string(n) + ", at most " + std::to_string(kMaxKernelDims) + ")");
  }
}

void set_out_dims(ReducePlan& p, const std::vector<Dim>& dims, std::int64_t n_out) {
  p.n_out = n_out;
  if (dims.empty()) {
    p.out_ndim = 1;
    p.out_shape[0] = n_out;
    p.out_in_strides[0] = 0;
    p.out_strides[0] = 0;
    return;
  }
  p.out_ndim = static_cast<int>(dims.size());
  for (int d = 0; d < p.out_ndim; ++d) {
    p.out_shape[d] = dims[d].shape;
    p.out_in_strides[d] = dims[d].in;
    p.out_strides[d] = dims[d].out;
  }
}

void set_red_dims(ReducePlan& p, const std::vector<Dim>& dims, std::int64_t n_red,
                  std::int64_t item) {
  p.n_red = n_red;
  if (dims.empty()) {
    p.red_ndim = 1;
    p.red_shape[0] = n_red;
    p.red_strides[0] = item;
    return;
  }
  p.red_ndim = static_cast<int>(dims.size());
  for (int d = 0; d < p.red_ndim; ++d) {
    p.red_shape[d] = dims[d].shape;
    p.red_strides[d] = dims[d].in;
  }
}

}  // namespace

ReducePlan make_reduce_plan(const ArrayView& in, const bool* reduced, const ArrayView& out,
                            const char* fname) {
  ReducePlan p;
  p.in = in.data;
  p.out = out.data;
  std::vector<Dim> kept, red;
  std::int64_t n_out = 1, n_red = 1;
  int j = 0;
  for (int d = 0; d < in.ndim; ++d) {
    if (reduced[d]) {
      red.push_back({in.shape[d], in.strides[d], 0});
      n_red *= in.shape[d];
    } else {
      kept.push_back({in.shape[d], in.strides[d], out.strides[j++]});
      n_out *= in.shape[d];
    }
  }
  // An empty side walks nothing: its dimensions are irrelevant.
  if (n_out == 0) kept.clear();
  if (n_red == 0) red.clear();
  kept = collapse(kept);
  red = collapse(red);
  check_dims(kept.size(), fname);
  check_dims(red.size(), fname);
  set_out_dims(p, kept, n_out);
  set_red_dims(p, red, n_red, itemsize(in.dtype));
  return p;
}

ReducePlan make_scan_plan(const ArrayView& in, int axis, const ArrayView& out, const char* fname) {
  ReducePlan p;
  p.in = in.data;
  p.out = out.data;
  std::vector<Dim> lines;
  std::int64_t n_lines = 1;
  for (int d = 0; d < in.ndim; ++d) {
    if (d == axis) continue;
    lines.push_back({in.shape[d], in.strides[d], out.strides[d]});
    n_lines *= in.shape[d];
  }
  const std::int64_t len = in.ndim ? in.shape[axis] : 1;
  if (n_lines == 0 || len == 0) lines.clear();
  lines = collapse(lines);
  check_dims(lines.size(), fname);
  set_out_dims(p, lines, n_lines);
  p.red_ndim = 1;
  p.n_red = len;
  p.red_shape[0] = len;
  p.red_strides[0] = in.ndim ? in.strides[axis] : itemsize(in.dtype);
  p.out_red_stride = in.ndim ? out.strides[axis] : itemsize(out.dtype);
  return p;
}

namespace {

// What a reduction's loops answer per input dtype (a nan-function's on integers and bool being
// its plain reducer's), tabulated once.
struct ReduceDTypes {
  PerDType<bool> supports;
  PerDType<DType> out;
};

template <template <class> class R>
constexpr ReduceDTypes reduce_dtypes() {
  ReduceDTypes r{};
  r.supports = per_dtype([](auto tag) {
    using L = reduce::loop_t<R, typename decltype(tag)::type>;
    return L::template supports<typename L::In>;
  });
  r.out = per_dtype([](auto tag) {
    return dtype_of_v<typename reduce::loop_t<R, typename decltype(tag)::type>::Out>;
  });
  return r;
}

constexpr ReduceDTypes kReduceDTypes[] = {
#define NUMCU_ROW(e, R, group, form, result, summary, returns) reduce_dtypes<reduce::R>(),
    NUMCU_REDUCTIONS(NUMCU_ROW)
#undef NUMCU_ROW
};

}  // namespace

DType reduce_out_dtype(ReduceOp op, DType in) {
  return kReduceDTypes[static_cast<int>(op)].out[in];
}

bool reduce_supports(ReduceOp op, DType in) {
  return kReduceDTypes[static_cast<int>(op)].supports[in];
}

DType scan_out_dtype(ScanOp op, DType in) {
  return reduce::visit_scan(op, in, [](auto s) { return dtype_of_v<typename decltype(s)::Out>; });
}

namespace {

// A table line's run-time answers: its own fields, and its reducer's traits.
template <template <class> class R>
constexpr ReductionInfo info_of(const char* name, const char* fname, const char* summary,
                                const char* returns, ReduceForm form, ReduceResult result) {
  using Line = R<double>;
  return {name,
          fname,
          summary,
          returns,
          form,
          result,
          Line::skips_nan,
          Line::nan_stand_in,
          Line::no_identity,
          Line::ufunc};
}

}  // namespace

const ReductionInfo& reduction_info(ReduceOp op) {
  static constexpr ReductionInfo kInfo[] = {
#define NUMCU_INFO(e, R, group, form, result, summary, returns) \
  info_of<reduce::R>(#e, "numcu." #e, summary, returns, ReduceForm::form, ReduceResult::result),
      NUMCU_REDUCTIONS(NUMCU_INFO)
#undef NUMCU_INFO
  };
  return kInfo[static_cast<int>(op)];
}

const ReductionInfo& scan_info(ScanOp op) {
  static constexpr ReductionInfo kInfo[] = {
#define NUMCU_INFO(e, S, summary, returns)                                \
  info_of<reduce::S>(#e, "numcu." #e, summary, returns, ReduceForm::scan, \
                     ReduceResult::accumulated),
      NUMCU_SCANS(NUMCU_INFO)
#undef NUMCU_INFO
  };
  return kInfo[static_cast<int>(op)];
}

}  // namespace numcu
