#pragma once
// Content-addressed cache of built kernel libraries. The key is the SHA-256
// of everything that decides the binary: the emitted sources, the exact nvcc
// command (with the CUTLASS path) and nvcc's version. A hit costs a stat; a
// miss builds into a private temporary folder that is renamed into place, so
// concurrent builders of the same key never see a half-written entry.
#include <string>
#include <vector>

#include "codegen/emit.h"

namespace ucutlass::build {

// $UCUTLASS_CACHE_DIR, else $XDG_CACHE_HOME/ucutlass, else ~/.cache/ucutlass.
std::string default_cache_dir();

struct CacheEntry {
  std::string key;
  std::string dir;      // <cache>/kernels/<key>
  std::string library;  // <dir>/libucutlass_<hash>.so
};

CacheEntry cache_entry(const std::string& cache_dir, const std::string& key, const std::string& hash);

std::string cache_key(const std::vector<codegen::EmittedFile>& files, const std::vector<std::string>& command,
                      const std::string& nvcc_version);

}  // namespace ucutlass::build
