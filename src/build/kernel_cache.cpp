#include "build/kernel_cache.h"

#include <cstdlib>

#include "support/sha256.h"

namespace ucutlass::build {

std::string default_cache_dir() {
  if (const char* d = std::getenv("UCUTLASS_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/ucutlass";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/ucutlass";
  return "/tmp/ucutlass-cache";
}

CacheEntry cache_entry(const std::string& cache_dir, const std::string& key, const std::string& hash) {
  CacheEntry e;
  e.key = key;
  e.dir = cache_dir + "/kernels/" + key;
  e.library = e.dir + "/libucutlass_" + hash + ".so";
  return e;
}

std::string cache_key(const std::vector<codegen::EmittedFile>& files, const std::vector<std::string>& command,
                      const std::string& nvcc_version) {
  Sha256 h;
  // Length-prefixed fields, so no two different inputs concatenate alike.
  auto field = [&](const std::string& s) {
    h.update(std::to_string(s.size()) + ":");
    h.update(s);
  };
  field("ucutlass-cache-1");
  for (const codegen::EmittedFile& f : files) {
    field(f.name);
    field(f.text);
  }
  // The source and output paths vary per build; every other argument counts.
  for (size_t i = 1; i < command.size(); ++i) {
    const std::string& a = command[i];
    bool is_path = a.size() > 3 && (a.ends_with(".cu") || a.ends_with(".so"));
    if (!is_path) field(a);
  }
  field(nvcc_version);
  std::array<uint8_t, 32> d = h.finish();
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (uint8_t b : d) {
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 15]);
  }
  return out;
}

}  // namespace ucutlass::build
