#pragma once
// Which GPU profile a SOL report is priced with, and why; the report always
// says. Order: --profile FILE; --gpu NAME (or $UCUTLASS_GPU); the local GPU as
// nvidia-smi names it; else the project's GPU, the H200. For a named GPU a
// measured profile in the profile cache (written by `ucutlass calibrate`) is
// laid over the datasheet one; see gpu_profile.h for how the two combine.
#include <optional>
#include <string>
#include <vector>

#include "sol/gpu_profile.h"

namespace ucutlass::sol {

struct ProfileRequest {
  std::string gpu;           // --gpu NAME ("" = not given)
  std::string profile_file;  // --profile FILE ("" = not given)
  bool detect = true;        // ask nvidia-smi when nothing is named
};

struct SelectedProfile {
  GpuProfile profile;
  std::string how;                    // "--gpu H200", "nvidia-smi: NVIDIA H200", "default"...
  std::vector<std::string> warnings;  // e.g. a hard bound resting on measured figures only
};

inline constexpr const char* kDefaultGpu = "H200";

bool select_profile(const ProfileRequest& request, SelectedProfile* out, std::string* err);

// data/gpus: $UCUTLASS_GPU_DATA_DIR, else data/gpus found above the executable,
// else the source tree ucutlass was built from.
std::string datasheet_profile_dir();
// Where calibrate stores measured profiles: $UCUTLASS_PROFILE_DIR, else
// $XDG_CACHE_HOME/ucutlass/profiles, else ~/.cache/ucutlass/profiles.
std::string measured_profile_dir();

// Every profile in `dir` (sorted by file name); unreadable files are errors.
bool load_profiles_in(const std::string& dir, std::vector<GpuProfile>* out, std::string* err);

// The local GPU's name from nvidia-smi, when nvidia-smi is on PATH and answers.
std::optional<std::string> detect_local_gpu_name();

}  // namespace ucutlass::sol
