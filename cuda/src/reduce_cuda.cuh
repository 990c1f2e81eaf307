// The CUDA reductions and scans. CUB does what it does well: whole contiguous arrays
// (cub::DeviceReduce), long contiguous rows (cub::DeviceSegmentedReduce), contiguous scans
// (cub::DeviceScan). numcu's own kernel takes the rest, one thread per output walking its
// reduced elements, so that reductions over leading axes read coalesced columns; when there
// are too few outputs to fill the GPU the reduced elements are split into chunks whose partial
// results a second pass combines. Every path combines in a fixed order: run to run, the same
// input gives the same bits.
#pragma once

#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

#include <cstdint>
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <string>
#include <type_traits>

#include "numcu/cuda_check.hpp"
#include "numcu/elementwise.cuh"
#include "numcu/errors.hpp"
#include "numcu/reduce.hpp"
#include "numcu/reducers.hpp"
#include "numcu/runtime.hpp"
#include "reduce_cuda_ops.hpp"

namespace numcu {

namespace kernels {

constexpr int kReduceBlock = 256;
// Threads that keep an H100 busy (132 SMs x 2048); fewer outputs than this split their work.
constexpr std::int64_t kBusyThreads = std::int64_t{1} << 18;
// The fewest elements a chunk of a split reduction gets.
constexpr std::int64_t kMinChunk = 64;
// Rows at least this long go to CUB's segmented reduce (a block per row); shorter rows are
// better served by a thread each.
constexpr std::int64_t kMinSegment = 1024;

// Device scratch from the stream-ordered pool, returned (stream-ordered) when it goes.
class DeviceScratch {
 public:
  DeviceScratch(std::size_t bytes, cudaStream_t stream)
      : bytes_(bytes), device_(cuda::current_device()), stream_(stream) {
    ptr_ = cuda::allocate(bytes, device_, stream_);
  }
  ~DeviceScratch() { cuda::deallocate(ptr_, bytes_, device_, stream_); }
  DeviceScratch(const DeviceScratch&) = delete;
  DeviceScratch& operator=(const DeviceScratch&) = delete;
  void* get() const { return ptr_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_;
  int device_;
  cudaStream_t stream_;
};

template <class T>
__device__ __forceinline__ T load(const char* p) {
  return *reinterpret_cast<const T*>(p);
}

// Output o's first input element and its output byte offset: o divided down the kept
// dimensions, in C order.
__device__ __forceinline__ void output_position(const ReducePlan& p, std::int64_t o,
                                                const char*& in, std::int64_t& out_offset) {
  for (int d = p.out_ndim - 1; d >= 0; --d) {
    const std::int64_t q = o / p.out_shape[d];
    const std::int64_t i = o - q * p.out_shape[d];
    o = q;
    in += i * p.out_in_strides[d];
    out_offset += i * p.out_strides[d];
  }
}

// Thread t reduces chunk t / n_out of output t % n_out; with one chunk it writes the output,
// otherwise its partial accumulator goes to partial[t].
template <class R>
__global__ void __launch_bounds__(kReduceBlock)
    strided_reduce_kernel(R r, ReducePlan p, std::int64_t chunk, std::int64_t splits,
                          typename R::Acc* partial) {
  using T = typename R::In;
  using Acc = typename R::Acc;
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * kReduceBlock + threadIdx.x;
  if (t >= p.n_out * splits) return;
  const std::int64_t o = t % p.n_out;
  const std::int64_t s = t / p.n_out;

  const char* in = p.in;
  std::int64_t out_offset = 0;
  output_position(p, o, in, out_offset);

  Acc acc = r.identity();
  const std::int64_t k0 = s * chunk;
  const std::int64_t k1 = k0 + chunk < p.n_red ? k0 + chunk : p.n_red;
  if (k0 < k1) {
    const int last = p.red_ndim - 1;
    std::int64_t index[kMaxKernelDims];
    std::int64_t rem = k0;
    for (int d = last; d >= 0; --d) {
      const std::int64_t q = rem / p.red_shape[d];
      index[d] = rem - q * p.red_shape[d];
      rem = q;
      in += index[d] * p.red_strides[d];
    }
    const std::int64_t inner = p.red_shape[last];
    const std::int64_t stride = p.red_strides[last];
    std::int64_t k = k0;
    while (k < k1) {
      const std::int64_t run = inner - index[last] < k1 - k ? inner - index[last] : k1 - k;
      std::int64_t j = 0;
      // Four independent loads in flight before they are combined.
      for (; j + 4 <= run; j += 4) {
        const T x0 = load<T>(in + j * stride), x1 = load<T>(in + (j + 1) * stride);
        const T x2 = load<T>(in + (j + 2) * stride), x3 = load<T>(in + (j + 3) * stride);
        acc = r(acc, r.leaf(x0, k + j, o));
        acc = r(acc, r.leaf(x1, k + j + 1, o));
        acc = r(acc, r.leaf(x2, k + j + 2, o));
        acc = r(acc, r.leaf(x3, k + j + 3, o));
      }
      for (; j < run; ++j) acc = r(acc, r.leaf(load<T>(in + j * stride), k + j, o));
      k += run;
      if (k >= k1) break;
      // The run ended its row: back to the row's start, then step the outer reduced dimensions
      // like an odometer.
      in -= index[last] * stride;
      index[last] = 0;
      for (int d = last - 1; d >= 0; --d) {
        in += p.red_strides[d];
        if (++index[d] < p.red_shape[d]) break;
        in -= p.red_strides[d] * p.red_shape[d];
        index[d] = 0;
      }
    }
  }
  if (partial != nullptr) {
    partial[t] = acc;
  } else {
    *reinterpret_cast<typename R::Out*>(p.out + out_offset) = r.finalize(acc, o);
  }
}

inline unsigned reduce_grid(std::int64_t threads) {
  const std::int64_t blocks = (threads + kReduceBlock - 1) / kReduceBlock;
  return static_cast<unsigned>(blocks > 0 ? blocks : 1);
}

// A plan that reads one accumulator per output from `acc` (dense, o in C order, `count` per
// output `stride` bytes apart) and writes p's outputs.
template <class Acc>
ReducePlan accumulator_plan(const ReducePlan& p, const Acc* acc, std::int64_t count) {
  ReducePlan q = p;
  q.in = reinterpret_cast<const char*>(acc);
  std::int64_t stride = sizeof(Acc);
  for (int d = q.out_ndim - 1; d >= 0; --d) {
    q.out_in_strides[d] = stride;
    stride *= q.out_shape[d];
  }
  q.n_red = count;
  q.red_ndim = 1;
  q.red_shape[0] = count;
  q.red_strides[0] = static_cast<std::int64_t>(sizeof(Acc)) * p.n_out;
  return q;
}

template <class R>
void launch_strided(const R& r, const ReducePlan& p, cudaStream_t stream) {
  using Acc = typename R::Acc;
  std::int64_t splits = 1;
  if (p.n_out < kBusyThreads && p.n_red >= 2 * kMinChunk) {
    const std::int64_t want = (kBusyThreads + p.n_out - 1) / p.n_out;
    const std::int64_t most = p.n_red / kMinChunk;
    splits = want < most ? want : most;
  }
  if (splits <= 1) {
    strided_reduce_kernel<R>
        <<<reduce_grid(p.n_out), kReduceBlock, 0, stream>>>(r, p, p.n_red, 1, nullptr);
    NUMCU_CUDA_TRY(cudaGetLastError(), "reduction kernel launch");
    return;
  }
  const std::int64_t chunk = (p.n_red + splits - 1) / splits;
  splits = (p.n_red + chunk - 1) / chunk;
  DeviceScratch partial(static_cast<std::size_t>(splits * p.n_out) * sizeof(Acc), stream);
  Acc* acc = static_cast<Acc*>(partial.get());
  strided_reduce_kernel<R>
      <<<reduce_grid(p.n_out * splits), kReduceBlock, 0, stream>>>(r, p, chunk, splits, acc);
  NUMCU_CUDA_TRY(cudaGetLastError(), "reduction kernel launch");
  launch_strided(reduce::make_combine(r), accumulator_plan(p, acc, splits), stream);
}

// Element i of the input as an accumulator (i counts from the data pointer, in elements).
template <class R>
struct LeafAt {
  R r;
  const typename R::In* data;
  NUMCU_HD typename R::Acc operator()(std::int64_t i) const { return r.leaf(data[i], i, 0); }
};

template <class R>
auto leaf_iterator(const R& r, const char* data) {
  using T = typename R::In;
  if constexpr (R::plain && std::is_same_v<T, typename R::Acc>) {
    // CUB loads plain pointers in vectors.
    return reinterpret_cast<const T*>(data);
  } else {
    return thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0),
                                           LeafAt<R>{r, reinterpret_cast<const T*>(data)});
  }
}

struct RowBegin {
  std::int64_t stride;
  __host__ __device__ std::int64_t operator()(std::int64_t s) const { return s * stride; }
};
struct RowEnd {
  std::int64_t stride, length;
  __host__ __device__ std::int64_t operator()(std::int64_t s) const { return s * stride + length; }
};

// Whole contiguous arrays reduced to one value, for the reducers CUB cannot read directly
// (argmin/argmax, the nan-functions, widening accumulators), whose CUB path goes through a
// transform iterator that loads one element at a time (argmax of 2^27 float32 on an H100: 2.63
// TB/s through CUB, 2.87 here). Each thread folds 16-byte vectors in index order, cub::BlockReduce
// combines a block's threads, and a one-block pass combines the blocks' partial results. Small
// arrays, for every reducer, take one block that writes the output: one launch, no scratch.
constexpr int kWholeBlock = 256;
// Arrays up to this many elements take the one-block kernel.
constexpr std::int64_t kOneBlockElements = 8192;

template <class T>
constexpr int whole_vector() {
  return sizeof(T) >= 16 ? 1 : static_cast<int>(16 / sizeof(T));
}

template <class R>
__device__ __forceinline__ void finish_whole(const R& r, typename R::Acc acc,
                                             typename R::Acc* partial, char* out) {
  using BlockReduce = cub::BlockReduce<typename R::Acc, kWholeBlock>;
  __shared__ typename BlockReduce::TempStorage temp;
  const typename R::Acc total = BlockReduce(temp).Reduce(acc, r);
  if (threadIdx.x == 0) {
    if (partial != nullptr) {
      partial[blockIdx.x] = total;
    } else {
      *reinterpret_cast<typename R::Out*>(out) = r.finalize(total, 0);
    }
  }
}

// `head` elements before the first 16-byte boundary, then vectors, then the rest.
template <class R>
__global__ void __launch_bounds__(kWholeBlock)
    whole_reduce_kernel(R r, const typename R::In* in, std::int64_t n, std::int64_t head,
                        typename R::Acc* partial, char* out) {
  using T = typename R::In;
  using Acc = typename R::Acc;
  constexpr int V = whole_vector<T>();
  using Vector = Vec<T, V>;
  const std::int64_t nvec = (n - head) / V;
  const Vector* vin = reinterpret_cast<const Vector*>(in + head);
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * kWholeBlock;
  Acc acc = r.identity();
  std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kWholeBlock + threadIdx.x;
  for (; i + 3 * stride < nvec; i += 4 * stride) {  // four vectors in flight
    Vector x[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) x[u] = vin[i + u * stride];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      const std::int64_t k = head + (i + u * stride) * V;
#pragma unroll
      for (int j = 0; j < V; ++j) acc = r(acc, r.leaf(x[u].v[j], k + j, 0));
    }
  }
  for (; i < nvec; i += stride) {
    const Vector x = vin[i];
#pragma unroll
    for (int j = 0; j < V; ++j) acc = r(acc, r.leaf(x.v[j], head + i * V + j, 0));
  }
  if (blockIdx.x == 0) {
    for (std::int64_t k = threadIdx.x; k < head; k += kWholeBlock)
      acc = r(acc, r.leaf(in[k], k, 0));
    for (std::int64_t k = head + nvec * V + threadIdx.x; k < n; k += kWholeBlock) {
      acc = r(acc, r.leaf(in[k], k, 0));
    }
  }
  finish_whole(r, acc, partial, out);
}

template <class R>
__global__ void __launch_bounds__(kWholeBlock)
    whole_partials_kernel(R r, const typename R::Acc* partial, int count, char* out) {
  typename R::Acc acc = r.identity();
  for (int i = threadIdx.x; i < count; i += kWholeBlock) acc = r(acc, partial[i]);
  finish_whole(r, acc, static_cast<typename R::Acc*>(nullptr), out);
}

inline int multiprocessors(int device) {
  static int cached[64] = {};
  if (device < 0 || device >= 64) device = 0;
  if (cached[device] == 0) {
    int count = 0;
    NUMCU_CUDA_TRY(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device),
                   "reading the device's multiprocessor count");
    cached[device] = count > 0 ? count : 1;
  }
  return cached[device];
}

template <class R>
void launch_whole(const R& r, const ReducePlan& p, cudaStream_t stream) {
  using T = typename R::In;
  using Acc = typename R::Acc;
  constexpr int V = whole_vector<T>();
  const T* in = reinterpret_cast<const T*>(p.in);
  const std::int64_t n = p.n_red;
  const std::uintptr_t misaligned = reinterpret_cast<std::uintptr_t>(in) % 16;
  std::int64_t head =
      misaligned == 0 ? 0 : static_cast<std::int64_t>((16 - misaligned) / sizeof(T));
  if (head > n) head = n;
  const std::int64_t vectors = (n - head) / V;
  std::int64_t blocks = (vectors + 4 * kWholeBlock - 1) / (4 * kWholeBlock);
  const std::int64_t most = 4 * static_cast<std::int64_t>(multiprocessors(cuda::current_device()));
  if (blocks > most) blocks = most;
  if (n <= kOneBlockElements || blocks <= 1) {
    whole_reduce_kernel<R><<<1, kWholeBlock, 0, stream>>>(r, in, n, head, nullptr, p.out);
    NUMCU_CUDA_TRY(cudaGetLastError(), "reduction kernel launch");
    return;
  }
  DeviceScratch partial(static_cast<std::size_t>(blocks) * sizeof(Acc), stream);
  Acc* acc = static_cast<Acc*>(partial.get());
  whole_reduce_kernel<R>
      <<<static_cast<unsigned>(blocks), kWholeBlock, 0, stream>>>(r, in, n, head, acc, nullptr);
  NUMCU_CUDA_TRY(cudaGetLastError(), "reduction kernel launch");
  whole_partials_kernel<R><<<1, kWholeBlock, 0, stream>>>(r, acc, static_cast<int>(blocks), p.out);
  NUMCU_CUDA_TRY(cudaGetLastError(), "reduction kernel launch");
}

// Where CUB writes: straight into the output when the accumulator is the output and the outputs
// are dense, else into scratch that a finalising pass reads.
template <class R>
bool writes_output_directly(const ReducePlan& p) {
  if constexpr (R::plain && std::is_same_v<typename R::Acc, typename R::Out>) {
    return p.n_out == 1 || (p.out_ndim == 1 && p.out_strides[0] == sizeof(typename R::Out));
  }
  return false;
}

// CUB's device-wide reduce; from kLargeTileElements on, with tiles of 1024 threads x 16 items
// (four-byte items; CUB scales the count for wider ones) in place of its default 256 x 16, the
// one policy it has for every architecture from sm_60 on. On the H100 a float32 sum of 2^27
// elements ran at 3056 GB/s with the large tiles and 3038 GB/s with the default (512 x 16:
// 3041, 256 x 32: 3027); below 2^24 elements the default's smaller tiles keep more
// multiprocessors busy.
constexpr std::int64_t kLargeTileElements = std::int64_t{1} << 24;

template <class Acc>
struct LargeTilePolicies {
  struct Policy : cub::ChainedPolicy<500, Policy, Policy> {
    using ReducePolicy =
        cub::AgentReducePolicy<1024, 16, Acc, 4, cub::BLOCK_REDUCE_WARP_REDUCTIONS, cub::LOAD_LDG>;
    using SingleTilePolicy = ReducePolicy;
    using SegmentedReducePolicy = ReducePolicy;
  };
  using MaxPolicy = Policy;
};

template <class R>
cudaError_t device_reduce(void* temp, std::size_t& bytes, const typename R::In* in,
                          typename R::Acc* out, std::int64_t n, const R& r, cudaStream_t stream) {
  using Acc = typename R::Acc;
  if (n >= kLargeTileElements) {
    return cub::DispatchReduce<const typename R::In*, Acc*, std::int64_t, R, Acc, Acc,
                               ::cuda::std::__identity,
                               LargeTilePolicies<Acc>>::Dispatch(temp, bytes, in, out, n, r,
                                                                 r.identity(), stream);
  }
  return cub::DeviceReduce::Reduce(temp, bytes, in, out, n, r, r.identity(), stream);
}

template <class R, class Run>
void run_cub(const R& r, const ReducePlan& p, cudaStream_t stream, Run&& run) {
  using Acc = typename R::Acc;
  const bool direct = writes_output_directly<R>(p);
  DeviceScratch acc_scratch(direct ? 0 : static_cast<std::size_t>(p.n_out) * sizeof(Acc), stream);
  Acc* acc = direct ? reinterpret_cast<Acc*>(p.out) : static_cast<Acc*>(acc_scratch.get());
  std::size_t bytes = 0;
  NUMCU_CUDA_TRY(run(nullptr, bytes, acc), "CUB reduction (sizing)");
  DeviceScratch temp(bytes, stream);
  NUMCU_CUDA_TRY(run(temp.get(), bytes, acc), "CUB reduction");
  if (!direct) launch_strided(reduce::make_combine(r), accumulator_plan(p, acc, 1), stream);
}

// Which paths an operation compiles: CUB's kernels are large, so only the reductions users run
// over long rows most (sum, prod, mean, min, max) get the segmented reduce; the others take
// numcu's kernel for partial reductions.
enum class Paths { all, no_segmented, strided_only };

template <class R, Paths P = Paths::all>
void launch_reduce(R r, const ReducePlan& p, cudaStream_t stream) {
  using T = typename R::In;
  constexpr std::int64_t item = sizeof(T);
  if (p.n_out == 0) return;
  const bool rows_contiguous = p.red_ndim == 1 && p.red_strides[0] == item && p.n_red > 0;
  if (rows_contiguous && p.n_out == 1 && reinterpret_cast<std::uintptr_t>(p.in) % alignof(T) == 0) {
    if constexpr (R::plain && std::is_same_v<T, typename R::Acc>) {
      if (p.n_red > kOneBlockElements) {
        run_cub(r, p, stream, [&](void* temp, std::size_t& bytes, typename R::Acc* acc) {
          return device_reduce(temp, bytes, reinterpret_cast<const T*>(p.in), acc, p.n_red, r,
                               stream);
        });
        return;
      }
    }
    launch_whole(r, p, stream);
    return;
  }
  if (P == Paths::all && rows_contiguous && p.out_ndim == 1 && p.n_red >= kMinSegment &&
      p.out_in_strides[0] > 0 && p.out_in_strides[0] % item == 0) {
    if constexpr (P == Paths::all) {
      const std::int64_t row = p.out_in_strides[0] / item;
      r.p.index_base_stride = row;
      const auto begin = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0),
                                                         RowBegin{row});
      const auto end = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0),
                                                       RowEnd{row, p.n_red});
      run_cub(r, p, stream, [&](void* temp, std::size_t& bytes, typename R::Acc* acc) {
        return cub::DeviceSegmentedReduce::Reduce(temp, bytes, leaf_iterator(r, p.in), acc, p.n_out,
                                                  begin, end, r, r.identity(), stream);
      });
    }
    return;
  }
  launch_strided(r, p, stream);
}

// Reductions whose second pass reads per-output means (var, std) need the output index of every
// element: only numcu's own kernel has it.
template <class R>
void launch_reduce_strided_only(const R& r, const ReducePlan& p, cudaStream_t stream) {
  if (p.n_out == 0) return;
  launch_strided(r, p, stream);
}

template <template <class> class R, Paths P = Paths::all>
void dispatch_reduce(const char* name, DType dtype, const ReducePlan& plan,
                     const ReduceParams& params, Stream stream) {
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (R<T>::template supports<T>) {
      R<T> r;
      r.p = params;
      if constexpr (P == Paths::strided_only) {
        launch_reduce_strided_only(r, plan, static_cast<cudaStream_t>(stream));
      } else {
        launch_reduce<R<T>, P>(r, plan, static_cast<cudaStream_t>(stream));
      }
    } else {
      throw_type_error(std::string("numcu.") + name + ": no loop for dtype " + dtype_name(dtype));
    }
  });
}

}  // namespace kernels
}  // namespace numcu

#define NUMCU_DEFINE_REDUCE_CUDA(e, R, ...)                                                       \
  void numcu::reduce_cuda_##e(DType dtype, const ReducePlan& plan, const ReduceParams& params,    \
                              Stream stream) {                                                    \
    kernels::dispatch_reduce<::numcu::reduce::R, ##__VA_ARGS__>(#e, dtype, plan, params, stream); \
  }
