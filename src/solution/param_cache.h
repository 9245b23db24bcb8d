#pragma once
// A tensor a solution derives from a parameter (a K-stacked split, a sub-pixel weight, a channel-padded
// weight) is built once and rebuilt only when the parameter changes: its storage, version counter
// (bumped by every in-place update), shape or strides. One helper for all of them.
//
//   _ucutlass_cached(self, "conv0.w", t0, lambda: _ucutlass_pad_channels(t0, 4))
#include <string>
#include <string_view>

namespace ucutlass::solution {

// The Python helper, defined after the others a solution carries (they may call it).
extern const std::string_view kParamCacheHelper;

// The call that caches `build` (a Python expression over `param`) under `key`.
std::string cached_param(const std::string& key, const std::string& param, const std::string& build);

}  // namespace ucutlass::solution
