// f16 conversions of the row kernels (row_kernels.hpp): emitted after it only into headers whose row
// kernels read or write f16, so that f32 solutions hold no half-precision code.
#ifndef UCUTLASS_ROW_KERNELS_F16_HPP
#define UCUTLASS_ROW_KERNELS_F16_HPP

#include <cuda_fp16.h>

namespace ucutlass_rows {
namespace detail {

template <>
struct ElementConvert<__half> {
  __device__ static float to_float(__half v) { return __half2float(v); }
  __device__ static __half from_float(float v) { return __float2half_rn(v); }
};

}  // namespace detail
}  // namespace ucutlass_rows

#endif  // UCUTLASS_ROW_KERNELS_F16_HPP
