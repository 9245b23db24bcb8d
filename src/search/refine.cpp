#include "search/refine.h"

#include <set>

namespace ucutlass::search {

std::optional<size_t> best_measured(const std::vector<Measured>& measured) {
  const Measured* best = nullptr;
  for (const Measured& m : measured)
    if (m.time_ms && (!best || *m.time_ms < *best->time_ms)) best = &m;
  return best ? std::optional<size_t>(best->index) : std::nullopt;
}

std::vector<size_t> next_candidates(const std::vector<Candidate>& ranked, const std::vector<Measured>& measured, size_t k,
                                    size_t first_batch) {
  std::set<size_t> taken;
  for (const Measured& m : measured) taken.insert(m.index);
  const std::optional<size_t> best = best_measured(measured);
  auto index_of = [&](const Candidate* c) { return static_cast<size_t>(c - ranked.data()); };
  std::vector<size_t> out;
  auto take = [&](size_t i) {
    if (out.size() < k && taken.insert(i).second) out.push_back(i);
  };

  if (measured.size() < first_batch) {
    for (const Candidate* c : diverse_top(ranked, first_batch)) take(index_of(c));
  } else if (best && *best < ranked.size()) {
    std::vector<size_t> near;
    for (const Candidate* c : neighbours(ranked, ranked[*best].config, ranked.size()))
      if (!taken.count(index_of(c))) near.push_back(index_of(c));
    const std::set<size_t> near_set(near.begin(), near.end());
    size_t r = 0;
    for (size_t n = 0; out.size() < k && (n < near.size() || r < ranked.size());) {
      if (n < near.size()) take(near[n++]);
      while (r < ranked.size() && (taken.count(r) || near_set.count(r))) ++r;
      if (r < ranked.size()) take(r++);
    }
  }
  for (size_t i = 0; i < ranked.size() && out.size() < k; ++i) take(i);
  return out;
}

}  // namespace ucutlass::search
