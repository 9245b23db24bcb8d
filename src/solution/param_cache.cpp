#include "solution/param_cache.h"

namespace ucutlass::solution {

const std::string_view kParamCacheHelper = R"PY(
def _ucutlass_cached(owner, key, param, build):
    cache = owner.__dict__.setdefault("_ucutlass_cache", {})
    stamp = (param.data_ptr(), param._version, param.shape, param.stride())  # torch.Size and a tuple: no copies
    hit = cache.get(key)
    if hit is None or hit[0] != stamp:
        with torch.no_grad():
            hit = (stamp, build())
        cache[key] = hit
    return hit[1]

)PY";

std::string cached_param(const std::string& key, const std::string& param, const std::string& build) {
  return "_ucutlass_cached(self, \"" + key + "\", " + param + ", lambda: " + build + ")";
}

}  // namespace ucutlass::solution
