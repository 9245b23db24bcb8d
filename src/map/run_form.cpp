#include "map/run_form.h"

#include "map/channel_pad.h"
#include "map/subpixel.h"

namespace ucutlass::map {

GemmMatch as_run(const GemmMatch& m, const KernelConfig& c) {
  if (!m.conv || m.conv->subpixel || m.conv->padded_from) return m;
  std::optional<GemmMatch> r = c.subpixel ? subpixel_match(m) : c.pad_channels ? channel_pad_match(m) : std::nullopt;
  return r ? *r : m;
}

}  // namespace ucutlass::map
