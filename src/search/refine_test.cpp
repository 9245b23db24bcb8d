// The attempt loop's refinement policy on a hand-built ranked list.
#include "search/refine.h"

#include <gtest/gtest.h>

namespace ucutlass::search {
namespace {

using std::nullopt;

Candidate make(int tm, int tn, int cm, ir::KernelSchedule schedule) {
  Candidate c;
  c.config.tile = {tm, tn, 64};
  c.config.cluster = {cm, 1, 1};
  c.config.schedule = schedule;
  return c;
}

// Knob differences from #0: #1 cluster, #2 tile, #3 schedule, #4 tile and
// cluster (two: not a neighbour of #0, but one of #1), #5 tile.
// Families (math, tile, scheduler): #0 #1 #3 share one.
std::vector<Candidate> ranked() {
  const auto coop = ir::KernelSchedule::cooperative, ping = ir::KernelSchedule::pingpong;
  return {make(128, 128, 1, coop), make(128, 128, 2, coop), make(128, 256, 1, coop),
          make(128, 128, 1, ping), make(256, 128, 2, coop), make(64, 64, 1, coop)};
}

TEST(Refine, Table) {
  const std::vector<Candidate> r = ranked();
  struct Row {
    const char* what;
    std::vector<Measured> measured;
    size_t k;
    std::vector<size_t> want;
  };
  const Row rows[] = {
      {"first batch: one per family, then rank order", {}, 3, {0, 2, 1}},
      {"first batch partly measured", {{0, 1.0}}, 3, {2, 1, 3}},
      {"neighbours of the best (#0) interleaved with the ranked rest", {{0, 1.0}, {2, 2.0}}, 4, {1, 4, 3, 5}},
      {"a neighbour became the best: walk around #1", {{0, 1.0}, {2, 2.0}, {1, 0.5}}, 9, {4, 3, 5}},
      {"nothing correct: the ranked list in order", {{0, nullopt}, {2, nullopt}}, 9, {1, 3, 4, 5}},
      {"k bounds the answer", {{0, 1.0}, {2, 2.0}}, 1, {1}},
      {"everything measured", {{0, 1.0}, {1, 1.0}, {2, 1.0}, {3, 1.0}, {4, 1.0}, {5, 1.0}}, 9, {}},
  };
  for (const Row& row : rows) EXPECT_EQ(next_candidates(r, row.measured, row.k, 2), row.want) << row.what;
}

TEST(Refine, BestMeasured) {
  EXPECT_EQ(best_measured({}), nullopt);
  EXPECT_EQ(best_measured({{3, nullopt}}), nullopt);
  EXPECT_EQ(best_measured({{3, 2.0}, {1, nullopt}, {4, 1.5}, {0, 1.7}}), 4u);
}

TEST(Refine, NeverProposesAMeasuredCandidateTwice) {
  const std::vector<Candidate> r = ranked();
  std::vector<Measured> measured;
  for (int step = 0; step < 10; ++step) {
    const std::vector<size_t> next = next_candidates(r, measured, 1, 2);
    if (next.empty()) break;
    for (const Measured& m : measured) EXPECT_NE(m.index, next[0]);
    measured.push_back({next[0], 1.0 + next[0]});
  }
  EXPECT_EQ(measured.size(), r.size());
}

}  // namespace
}  // namespace ucutlass::search

namespace ucutlass::search {
namespace {

Candidate with_math(ir::MathPath math, int tm, bool k_stack3 = false) {
  Candidate c = make(tm, 128, 1, ir::KernelSchedule::cooperative);
  c.config.math = math;
  c.config.k_stack3 = k_stack3;
  return c;
}

TEST(Refine, AnInaccurateAttemptDefersPathsNoMoreAccurate) {
  using M = ir::MathPath;
  // Ranked as the cost model ranks an fp32 GEMM under 1e-2: TF32 tilings first.
  const std::vector<Candidate> r = {with_math(M::tf32, 128), with_math(M::tf32, 256), with_math(M::tf32, 64),
                                    with_math(M::tf32, 128, true), with_math(M::tf32x3, 128), with_math(M::simt, 128)};
  // Measured: #0 ran but missed the tolerance. The other TF32 tilings go last.
  EXPECT_EQ(next_candidates(r, {{0, nullopt, true}}, 5, 1), (std::vector<size_t>{3, 4, 5, 1, 2}));
  // The K-stacked path missed too: only the sm80 3xTF32 and SIMT paths are ahead.
  EXPECT_EQ(next_candidates(r, {{0, nullopt, true}, {3, nullopt, true}}, 2, 1), (std::vector<size_t>{4, 5}));
  // A crash (not inaccurate) defers nothing.
  EXPECT_EQ(next_candidates(r, {{0, nullopt, false}}, 2, 1), (std::vector<size_t>{1, 2}));
  // After a miss with nothing correct, a batch takes one candidate per accuracy rank above it (the
  // K-stacked path and sm80 3xTF32), not two of the same rank.
  std::vector<Candidate> r2 = {with_math(M::tf32, 128), with_math(M::tf32, 256), with_math(M::tf32, 128, true),
                               with_math(M::tf32, 256, true), with_math(M::tf32x3, 128)};
  const double estimates[] = {1.0, 1.1, 4.0, 4.2, 5.0};  // the 3x paths beyond the first batch's hedge reach
  for (size_t i = 0; i < r2.size(); ++i) r2[i].estimate_s = estimates[i];
  EXPECT_EQ(next_candidates(r2, {{0, nullopt, true}, {1, nullopt, true}}, 2, 1), (std::vector<size_t>{2, 4}));
  // ... also while the first batch (here 4) is still being filled.
  EXPECT_EQ(next_candidates(r2, {{0, nullopt, true}, {1, nullopt, true}}, 2, 4), (std::vector<size_t>{2, 4}));
  EXPECT_LT(accuracy_rank(r[0].config), accuracy_rank(r[3].config));
  EXPECT_LT(accuracy_rank(r[3].config), accuracy_rank(r[4].config));
}

}  // namespace
}  // namespace ucutlass::search
