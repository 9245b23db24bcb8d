#include "sol/gpu_profile.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "sol/profile_selection.h"

namespace ucutlass::sol {
namespace {

GpuProfile parse(const std::string& text) {
  GpuProfile p;
  std::string err;
  EXPECT_TRUE(parse_gpu_profile(text, "p.json", &p, &err)) << err;
  return p;
}

const char* kTwoSources = R"({"format": "ucutlass-gpu-profile", "version": 1, "name": "X1", "aliases": ["NVIDIA X1 SXM"], "sms": 100,
  "datasheet": {"dram_bytes_per_s": 4e12, "flops_per_s": {"fp32": 60e12, "tf32": 400e12, "bf16": 800e12, "fp16": 800e12}},
  "measured": {"date": "2026-01-01", "dram_bytes_per_s": 3.6e12,
               "flops_per_s": {"fp32": 62e12, "tf32": 320e12, "bf16": 640e12}}})";

TEST(GpuProfile, HardRateIsTheFasterOfDatasheetAndMeasured) {
  GpuProfile p = parse(kTwoSources);
  struct Case {
    MathPath path;
    double hard, realistic;
  };
  const std::vector<Case> cases = {
      {MathPath::fp32, 62e12, 62e12},                                // measured above datasheet raises the bound's rate
      {MathPath::tf32, 400e12, 320e12},                              // datasheet bounds, measured estimates
      {MathPath::fp16, 800e12, 800e12 * kAttainableTensorFraction},  // no measurement: typical fraction
      {MathPath::tf32x3, 400e12 / 3, 320e12 / 3},                    // three TF32 GEMMs
      {MathPath::fp8, 800e12, 800e12 * kAttainableTensorFraction},   // no fp8 figure: the 16-bit rate
      {MathPath::fp64_tensor, 0, 0},                                 // nothing known at all
  };
  for (const Case& c : cases) {
    EXPECT_DOUBLE_EQ(hard_flops(p, c.path).value, c.hard) << path_name(c.path);
    EXPECT_DOUBLE_EQ(realistic_flops(p, c.path).value, c.realistic) << path_name(c.path);
  }
  EXPECT_EQ(hard_flops(p, MathPath::fp8).note, "no fp8 figure for X1: priced at fp16");
  EXPECT_DOUBLE_EQ(hard_dram_bandwidth(p), 4e12);
  EXPECT_DOUBLE_EQ(realistic_dram_bandwidth(p), 3.6e12);
}

TEST(GpuProfile, NamesMatchLoosely) {
  GpuProfile p = parse(kTwoSources);
  for (const char* q : {"X1", "x1", "NVIDIA X1", "nvidia-x1-sxm", "X1 SXM"}) EXPECT_TRUE(p.matches(q)) << q;
  for (const char* q : {"X2", "", "X1 PCIe"}) EXPECT_FALSE(p.matches(q)) << q;
  EXPECT_EQ(gpu_name_slug("NVIDIA H200"), "nvidia-h200");
}

TEST(GpuProfile, RejectsBrokenProfiles) {
  struct Case {
    const char* text;
    const char* error;
  };
  const std::vector<Case> cases = {
      {"{", "p.json: invalid JSON"},
      {R"({"format": "x"})", "p.json: /format: expected \"ucutlass-gpu-profile\""},
      {R"({"format": "ucutlass-gpu-profile", "name": "X", "sms": 1})",
       "p.json: the profile has neither \"datasheet\" nor \"measured\" ceilings"},
      {R"({"format": "ucutlass-gpu-profile", "name": "X", "sms": 1, "datasheet": {"dram_bytes_per_s": -1}})",
       "p.json: /datasheet/dram_bytes_per_s: expected a positive number or null, found -1"},
      {R"({"format": "ucutlass-gpu-profile", "name": "X", "sms": 1, "datasheet": {"dram_bytes_per_s": 1, "flops_per_s": {"fp4": 1}}})",
       "p.json: /datasheet/flops_per_s/fp4: unknown math path; legal: fp64, fp64_tensor, fp32, tf32, fp16, bf16, fp8"},
  };
  for (const Case& c : cases) {
    GpuProfile p;
    std::string err;
    EXPECT_FALSE(parse_gpu_profile(c.text, "p.json", &p, &err)) << c.text;
    EXPECT_EQ(err, c.error);
  }
}

TEST(GpuProfile, ShippedDatasheetsLoadAndMatchSolFacts) {
  std::vector<GpuProfile> all;
  std::string err;
  ASSERT_TRUE(load_profiles_in(std::string(UCUTLASS_SOURCE_DIR) + "/data/gpus", &all, &err)) << err;
  ASSERT_EQ(all.size(), 5u);
  struct Case {
    const char* gpu;
    double bf16, tf32, dram;
  };
  const std::vector<Case> cases = {{"H200", 989e12, 495e12, 4.8e12},    {"H100 SXM", 989e12, 495e12, 3.35e12},
                                   {"A100 SXM", 312e12, 156e12, 2.04e12}, {"B200", 2250e12, 1100e12, 8e12},
                                   {"L40S", 362e12, 183e12, 0.864e12}};
  for (const Case& c : cases) {
    auto it = std::find_if(all.begin(), all.end(), [&](const GpuProfile& p) { return p.matches(c.gpu); });
    ASSERT_NE(it, all.end()) << c.gpu;
    EXPECT_DOUBLE_EQ(*it->datasheet->flops_per_s[static_cast<size_t>(MathPath::bf16)], c.bf16) << c.gpu;
    EXPECT_DOUBLE_EQ(*it->datasheet->flops_per_s[static_cast<size_t>(MathPath::tf32)], c.tf32) << c.gpu;
    EXPECT_DOUBLE_EQ(*it->datasheet->dram_bytes_per_s, c.dram) << c.gpu;
  }
}

TEST(ProfileSelection, MeasuredProfileInTheCacheIsLaidOverTheDatasheet) {
  std::string dir = ::testing::TempDir() + "/ucutlass_profiles_test";
  std::filesystem::create_directories(dir);
  {
    std::ofstream f(dir + "/nvidia-h200.json");
    f << R"({"format": "ucutlass-gpu-profile", "version": 1, "name": "NVIDIA H200", "source": "measured", "sms": 132,
             "measured": {"date": "2027-01-02", "dram_bytes_per_s": 4.3e12, "flops_per_s": {"bf16": 800e12}}})";
  }
  setenv("UCUTLASS_PROFILE_DIR", dir.c_str(), 1);
  SelectedProfile s;
  std::string err;
  ASSERT_TRUE(select_profile({"h200", "", false}, &s, &err)) << err;
  EXPECT_EQ(s.how, "--gpu h200");
  EXPECT_EQ(s.profile.source, "measured");
  EXPECT_EQ(s.profile.measured_date, "2027-01-02");
  EXPECT_DOUBLE_EQ(hard_flops(s.profile, MathPath::bf16).value, 989e12);
  EXPECT_DOUBLE_EQ(realistic_flops(s.profile, MathPath::bf16).value, 800e12);
  EXPECT_DOUBLE_EQ(realistic_dram_bandwidth(s.profile), 4.3e12);

  EXPECT_FALSE(select_profile({"H20", "", false}, &s, &err));
  EXPECT_EQ(err, "unknown GPU \"H20\" (did you mean \"H200\"?); known: A100 SXM, B200, H100 SXM, H200, L40S; "
                 "measure it with `ucutlass calibrate` or pass --profile FILE");
  unsetenv("UCUTLASS_PROFILE_DIR");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ucutlass::sol
