#include "search/next_expectation.h"

#include <algorithm>

namespace ucutlass::search {

namespace {

// A problem's measured / estimated ratio is held within these: one odd measurement must not make the
// model look 100x off for the rest of the campaign.
constexpr double kMinCalibration = 0.25;
constexpr double kMaxCalibration = 8.0;

}  // namespace

std::optional<NextExpectation> expect_next(const std::vector<std::vector<Candidate>>& candidates,
                                           const std::vector<std::vector<Measured>>& measured,
                                           const std::vector<size_t>& pick, double unmapped_ms) {
  if (pick.empty() || pick.size() != candidates.size() || measured.size() != candidates.size()) return std::nullopt;
  // The best correct attempt: the same position in every GEMM's list (each attempt is recorded in all).
  const std::optional<size_t> best = best_attempt(measured[0]);
  if (!best) return std::nullopt;
  double best_estimate_ms = unmapped_ms, next_ms = unmapped_ms;
  NextExpectation out;
  for (size_t g = 0; g < candidates.size(); ++g) {
    if (*best >= measured[g].size() || measured[g][*best].index >= candidates[g].size() || pick[g] >= candidates[g].size())
      return std::nullopt;
    best_estimate_ms += candidates[g][measured[g][*best].index].estimate_s * 1e3;
    const Candidate& next = candidates[g][pick[g]];
    next_ms += next.estimate_s * 1e3;
    out.speculative |= next.speculative;
  }
  if (best_estimate_ms <= 0 || next_ms <= 0) return std::nullopt;
  const double calibration = std::clamp(*measured[0][*best].time_ms / best_estimate_ms, kMinCalibration, kMaxCalibration);
  out.ms = next_ms * calibration;
  return out;
}

}  // namespace ucutlass::search
