// The mapping signature of written programs and of matches: a recorded attempt's DSL and today's
// mapping of the same problem compare equal exactly when they use the same kernels.
#include "map/mapping_signature.h"

#include <gtest/gtest.h>

#include "graph/testing_fixture.h"
#include "map/row_match.h"
#include "search/config_space.h"
#include "sol/testing_profile.h"

namespace ucutlass::map {
namespace {

TEST(MappingSignature, NamesTheProgramsKernelsSorted) {
  EXPECT_EQ(mapping_signature("# two GEMMs\nkernel gemm1 = gemm(m = 8, n = 8, k = 8)\n  .with_types(f32)\n"
                              "kernel gemm0 = gemm(m = 8, n = 8, k = 8)\n"),
            "gemm0,gemm1");
  EXPECT_EQ(mapping_signature("  kernel attn0 = attention(batch = 1, seq_q = 8, seq_k = 8, head_dim = 64)"), "attn0");
  // A comment or a pipeline step naming a kernel is not a declaration.
  EXPECT_EQ(mapping_signature("# kernel old = gemm(...)\npipeline p = gemm0 -> gemm1\n"), "");
}

// level3/003 under kernelbench-v0.1: the fused attention kernel now, where the campaign's first
// attempts ran the spelled-out sdpa's two GEMMs; the signature of a program written for today's
// mapping equals the mapping's own.
TEST(MappingSignature, AttentionIsANewMappingOfLevel3003) {
  graph::OpGraph g = graph::testing::suite_graph("level3_003_attention_sdpa");
  const MatchReport fused = match_problem(g, true);
  EXPECT_EQ(mapping_signature(fused.gemms), "attn0");
  graph::OpGraph g2 = graph::testing::suite_graph("level3_003_attention_sdpa");
  EXPECT_EQ(mapping_signature(match_problem(g2, false).gemms), "gemm0,gemm1");
  search::Candidate first =
      search::legal_candidates(fused.gemms[0], sol::ToleranceProfile::kernelbench_v01, sol::testing::h200(), nullptr).at(0);
  EXPECT_EQ(mapping_signature(first.dsl), "attn0");
}

}  // namespace
}  // namespace ucutlass::map
