#pragma once
// Builds DSL programs into shared libraries: front end, emission, then nvcc
// through the kernel cache, many programs at once on a pool of workers.
#include <string>
#include <vector>

#include "build/toolchain.h"

namespace ucutlass::build {

struct BuildRequest {
  std::string path;  // DSL program
};

struct BuildOptions {
  Toolchain toolchain;
  std::string cache_dir;
  std::string out_dir;  // "" = leave results in the cache only
  int jobs = 1;
  double nvcc_timeout_s = 900;
};

struct BuildResult {
  std::string file;
  bool ok = false;
  std::string stage;  // where it stopped: "read", "check", "emit", "nvcc", or "done"
  std::string hash;
  std::string library;   // absolute path of the .so
  std::string manifest;  // absolute path of the manifest JSON
  bool cached = false;
  double seconds = 0;
  std::string log;  // diagnostics, or nvcc's output on failure (tail)
};

std::vector<BuildResult> build_programs(const std::vector<BuildRequest>& requests, const BuildOptions& options);

}  // namespace ucutlass::build
