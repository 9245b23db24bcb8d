#pragma once
// The arithmetic paths a GPU prices FLOPs at. A GEMM's path is a choice (see
// precision_policy.h); every other op runs on the SIMT path of its dtype.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ucutlass::sol {

enum class MathPath { fp64, fp64_tensor, fp32, tf32, tf32x3, fp16, bf16, fp8 };
inline constexpr size_t kMathPathCount = 8;

// Profile keys and report names: "fp64", "fp64_tensor", "fp32" (SIMT), "tf32",
// "3xtf32" (split-precision emulation on TF32 tensor cores), "fp16", "bf16", "fp8".
std::string path_name(MathPath p);
std::optional<MathPath> parse_path(std::string_view name);
const std::vector<std::string>& path_names();
bool is_tensor_path(MathPath p);

}  // namespace ucutlass::sol
