#include "search/refine.h"

#include <algorithm>
#include <set>

namespace ucutlass::search {

std::optional<size_t> best_attempt(const std::vector<Measured>& measured) {
  std::optional<size_t> best;
  for (size_t i = 0; i < measured.size(); ++i)
    if (measured[i].time_ms && (!best || *measured[i].time_ms < *measured[*best].time_ms)) best = i;
  return best;
}

std::optional<size_t> best_measured(const std::vector<Measured>& measured) {
  const std::optional<size_t> best = best_attempt(measured);
  return best ? std::optional<size_t>(measured[*best].index) : std::nullopt;
}

int accuracy_rank(const map::KernelConfig& c) {
  // f32 operands rounded to bf16 (2^-9) sit below TF32 (2^-11); their 3xBF16 split (2^-16) above it,
  // below 3xTF32 (2^-21). Native 16-bit operands only meet fast accumulation.
  if (c.bf16_operands) return c.k_stack3 ? 4 : 1;
  switch (c.math) {
    case ir::MathPath::fast_accum: return 0;
    case ir::MathPath::tf32: return c.k_stack3 ? 5 : 2;
    case ir::MathPath::tensor_op: return 3;
    case ir::MathPath::tf32x3: return 6;
    case ir::MathPath::simt: return 7;
  }
  return 0;
}

std::vector<size_t> next_candidates(const std::vector<Candidate>& ranked, const std::vector<Measured>& measured, size_t k,
                                    size_t first_batch) {
  std::set<size_t> taken;
  for (const Measured& m : measured) taken.insert(m.index);
  // Paths no more accurate than one that missed the tolerance wait behind all the others.
  int missed = -1;
  for (const Measured& m : measured)
    if (m.inaccurate && m.index < ranked.size()) missed = std::max(missed, accuracy_rank(ranked[m.index].config));
  std::set<size_t> deferred;
  for (size_t i = 0; i < ranked.size(); ++i)
    if (!taken.count(i) && accuracy_rank(ranked[i].config) <= missed) deferred.insert(i);
  for (size_t i : deferred) taken.insert(i);
  const std::optional<size_t> best = best_measured(measured);
  auto index_of = [&](const Candidate* c) { return static_cast<size_t>(c - ranked.data()); };
  std::vector<size_t> out;
  auto take = [&](size_t i) {
    if (out.size() < k && taken.insert(i).second) out.push_back(i);
  };

  if (!best && missed >= 0) {
    // Nothing correct yet and a path missed the tolerance (in the first batch too): one candidate per
    // accuracy rank, so a batch climbs past a whole class of paths at once instead of spending itself
    // on tilings of the next rounding up (level2/017 spent two attempts on two TF32 tilings after bf16
    // and fp16 missed, H200 2026-11-30, campaigns/gemmhedge-v01-2026-11-30-170800.sqlite, twice).
    std::set<int> ranks;
    for (size_t i = 0; i < ranked.size() && out.size() < k; ++i)
      if (!taken.count(i) && ranks.insert(accuracy_rank(ranked[i].config)).second) take(i);
  } else if (measured.size() < first_batch) {
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
  for (size_t i : deferred)
    if (out.size() < k) out.push_back(i);
  return out;
}

}  // namespace ucutlass::search
