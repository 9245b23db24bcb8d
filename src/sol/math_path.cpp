#include "sol/math_path.h"

namespace ucutlass::sol {

namespace {
constexpr std::array<const char*, kMathPathCount> kNames{"fp64", "fp64_tensor", "fp32", "tf32",
                                                         "3xtf32", "fp16", "bf16", "fp8"};
}

std::string path_name(MathPath p) { return kNames[static_cast<size_t>(p)]; }

std::optional<MathPath> parse_path(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i)
    if (name == kNames[i]) return static_cast<MathPath>(i);
  if (name == "tf32x3") return MathPath::tf32x3;
  return std::nullopt;
}

const std::vector<std::string>& path_names() {
  static const std::vector<std::string> names(kNames.begin(), kNames.end());
  return names;
}

bool is_tensor_path(MathPath p) { return p != MathPath::fp64 && p != MathPath::fp32; }

}  // namespace ucutlass::sol
