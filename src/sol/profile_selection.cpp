#include "sol/profile_selection.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "exec/subprocess.h"
#include "support/install_paths.h"
#include "support/did_you_mean.h"

namespace ucutlass::sol {

namespace fs = std::filesystem;

namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

const GpuProfile* find_match(const std::vector<GpuProfile>& list, const std::string& query) {
  for (const GpuProfile& p : list)
    if (p.matches(query)) return &p;
  return nullptr;
}

bool on_path(const std::string& program) {
  std::string path = env("PATH");
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    std::error_code ec;
    if (end > start && fs::exists(fs::path(path.substr(start, end - start)) / program, ec)) return true;
    start = end + 1;
  }
  return false;
}

// A datasheet profile for `query`, with a measured one laid over it when the cache holds one.
bool profile_for_name(const std::string& query, const std::string& how, SelectedProfile* out, std::string* err) {
  std::vector<GpuProfile> datasheets, measured;
  if (!load_profiles_in(datasheet_profile_dir(), &datasheets, err)) return false;
  std::string cache_err;
  if (!load_profiles_in(measured_profile_dir(), &measured, &cache_err))
    out->warnings.push_back("ignored the measured-profile cache: " + cache_err);
  const GpuProfile* sheet = find_match(datasheets, query);
  const GpuProfile* meas = find_match(measured, query);
  if (sheet && meas) {
    out->profile = merge_measured(*sheet, *meas);
  } else if (sheet) {
    out->profile = *sheet;
  } else if (meas) {
    out->profile = *meas;
    out->warnings.push_back("no datasheet profile for " + meas->name +
                            ": the hard bound rests on measured ceilings only, which a better kernel may beat");
  } else {
    std::vector<std::string> names;
    for (const GpuProfile& p : datasheets) names.push_back(p.name);
    *err = "unknown GPU \"" + query + "\"";
    std::string near = closest_name(query, names);
    if (!near.empty()) *err += " (did you mean \"" + near + "\"?)";
    *err += "; known: " + join_names(names) + "; measure it with `ucutlass calibrate` or pass --profile FILE";
    return false;
  }
  out->how = how;
  return true;
}

}  // namespace

std::string datasheet_profile_dir() {
  if (std::string d = env("UCUTLASS_GPU_DATA_DIR"); !d.empty()) return d;
  return find_install_dir("data/gpus");
}

std::string measured_profile_dir() {
  if (std::string d = env("UCUTLASS_PROFILE_DIR"); !d.empty()) return d;
  if (std::string x = env("XDG_CACHE_HOME"); !x.empty()) return x + "/ucutlass/profiles";
  return env("HOME") + "/.cache/ucutlass/profiles";
}

bool load_profiles_in(const std::string& dir, std::vector<GpuProfile>* out, std::string* err) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return true;
  std::vector<std::string> files;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  for (const std::string& f : files) {
    GpuProfile p;
    if (!load_gpu_profile(f, &p, err)) return false;
    out->push_back(std::move(p));
  }
  return true;
}

std::optional<std::string> detect_local_gpu_name() {
  // Spawning a missing program costs little, but looking first keeps a
  // CPU-only machine from paying for it on every `ucutlass sol`.
  if (!on_path("nvidia-smi")) return std::nullopt;
  ProcessOptions options;
  options.timeout_s = 10;
  ProcessResult r = run_process({"nvidia-smi", "--query-gpu=name", "--format=csv,noheader"}, options);
  if (!r.ok()) return std::nullopt;
  std::string name = r.out.substr(0, r.out.find('\n'));
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back()))) name.pop_back();
  if (name.empty()) return std::nullopt;
  return name;
}

bool select_profile(const ProfileRequest& request, SelectedProfile* out, std::string* err) {
  *out = SelectedProfile{};
  if (!request.profile_file.empty()) {
    GpuProfile p;
    if (!load_gpu_profile(request.profile_file, &p, err)) return false;
    out->how = "--profile " + request.profile_file;
    if (p.datasheet) {
      out->profile = std::move(p);
      return true;
    }
    std::vector<GpuProfile> datasheets;
    if (!load_profiles_in(datasheet_profile_dir(), &datasheets, err)) return false;
    const GpuProfile* sheet = find_match(datasheets, p.name);
    for (size_t i = 0; !sheet && i < p.aliases.size(); ++i) sheet = find_match(datasheets, p.aliases[i]);
    if (sheet) {
      out->profile = merge_measured(*sheet, p);
    } else {
      out->profile = std::move(p);
      out->warnings.push_back("no datasheet profile for " + out->profile.name +
                              ": the hard bound rests on measured ceilings only, which a better kernel may beat");
    }
    return true;
  }
  std::string gpu = request.gpu;
  std::string how = "--gpu " + gpu;
  if (gpu.empty()) {
    gpu = env("UCUTLASS_GPU");
    how = "$UCUTLASS_GPU=" + gpu;
  }
  if (gpu.empty() && request.detect) {
    if (std::optional<std::string> local = detect_local_gpu_name()) {
      SelectedProfile detected;
      std::string detect_err;
      if (profile_for_name(*local, "nvidia-smi: " + *local, &detected, &detect_err)) {
        *out = std::move(detected);
        return true;
      }
      out->warnings.push_back("the local GPU \"" + *local + "\" has no profile; using the default " + kDefaultGpu);
    }
  }
  if (gpu.empty()) {
    gpu = kDefaultGpu;
    how = std::string("default (no GPU named or detected)");
  }
  std::vector<std::string> kept = out->warnings;
  if (!profile_for_name(gpu, how, out, err)) return false;
  out->warnings.insert(out->warnings.begin(), kept.begin(), kept.end());
  return true;
}

}  // namespace ucutlass::sol
