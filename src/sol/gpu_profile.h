#pragma once
// A GPU as the SOL engine sees it: datasheet peaks and, when someone measured
// them, attained ceilings. Profiles are data (data/gpus/*.json, or a file
// `ucutlass calibrate` wrote); schema in docs/sol.md.
//
// Two rates per path, because they answer different questions:
//  - the hard rate prices the lower bound, which an honest kernel must never
//    beat: max(datasheet, measured) -- a measured figure above the datasheet
//    (boost clock, a datasheet that undersells) raises the ceiling;
//  - the realistic rate prices the estimate of what a good kernel reaches:
//    the measured ceiling when there is one, else the datasheet times a
//    typical attainable fraction.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sol/math_path.h"

namespace ucutlass::sol {

struct Ceilings {
  std::optional<double> dram_bytes_per_s;
  std::optional<double> l2_bytes_per_s;
  std::array<std::optional<double>, kMathPathCount> flops_per_s{};
};

struct GpuProfile {
  std::string name;
  std::vector<std::string> aliases;
  std::string source;  // "datasheet" or "measured": where the file came from
  std::string file;    // path it was loaded from
  std::string arch;
  int sms = 0;
  double boost_clock_mhz = 0;
  int64_t l2_bytes = 0;
  int64_t smem_per_sm_bytes = 0;
  std::optional<Ceilings> datasheet;
  std::optional<Ceilings> measured;
  std::string measured_date;
  std::string measured_origin;
  std::map<std::string, std::string> unavailable;  // path -> why it was not measured

  // True when `query` names this GPU ("H200", "NVIDIA H200", "h200-sxm"...).
  bool matches(const std::string& query) const;
};

// A rate and, when it is not the path's own figure, why.
struct Rate {
  double value = 0;
  std::string note;  // "" or e.g. "no fp8 path on L40S: priced at fp16"
};

// Loads and validates a profile; errors are "path: /pointer: what is wrong".
bool load_gpu_profile(const std::string& path, GpuProfile* out, std::string* err);
bool parse_gpu_profile(const std::string& text, const std::string& path, GpuProfile* out, std::string* err);

// The measured ceilings of `measured` laid over the datasheet of `base`.
GpuProfile merge_measured(const GpuProfile& base, const GpuProfile& measured);

Rate hard_flops(const GpuProfile& gpu, MathPath path);
Rate realistic_flops(const GpuProfile& gpu, MathPath path);
double hard_dram_bandwidth(const GpuProfile& gpu);
double realistic_dram_bandwidth(const GpuProfile& gpu);

// Fractions of datasheet peak a good kernel reaches when nothing was measured
// (shared/facts/sol.md: cuBLAS large GEMMs 70-83 %, copies 85-92 %).
inline constexpr double kAttainableTensorFraction = 0.80;
inline constexpr double kAttainableSimtFraction = 0.75;
inline constexpr double kAttainableDramFraction = 0.88;

// Lower-case, alphanumerics only, "nvidia" dropped: "NVIDIA H200" -> "h200".
std::string normalize_gpu_name(const std::string& name);
// A file-name slug: "NVIDIA H200" -> "nvidia-h200".
std::string gpu_name_slug(const std::string& name);

}  // namespace ucutlass::sol
