// The store's config text split into its kernels and joined back.
#include "store/config_kernels.h"

#include <gtest/gtest.h>

namespace ucutlass::store {
namespace {

TEST(ConfigKernels, SplitsOnTheSeparatorAndJoinsBack) {
  const std::string two = "sm90a tf32 a=row b=col 128x128x32 c1x1x1 cooperative persistent; sm90a rows access 4 threads 128";
  EXPECT_EQ(config_kernels(two), (std::vector<std::string>{"sm90a tf32 a=row b=col 128x128x32 c1x1x1 cooperative persistent",
                                                            "sm90a rows access 4 threads 128"}));
  EXPECT_EQ(config_text(config_kernels(two)), two);
  EXPECT_EQ(config_kernels("sm80 f16 64x64x32"), (std::vector<std::string>{"sm80 f16 64x64x32"}));
  EXPECT_EQ(config_kernels(""), (std::vector<std::string>{""}));
  EXPECT_EQ(config_kernels("a; "), (std::vector<std::string>{"a", ""}));  // a trailing separator leaves an empty kernel
  EXPECT_EQ(config_kernels("a;b"), (std::vector<std::string>{"a;b"}));     // only "; " separates
  EXPECT_EQ(config_text({}), "");
}

TEST(ConfigKernels, AConfigExtendsAnotherWhenItRunsItsKernelsWithMoreAfterThem) {
  const std::string gemm = "sm90a tf32 a=row b=col 128x128x32 c2x1x1 cooperative persistent";
  EXPECT_TRUE(extends_config(gemm + "; sm90a rows access 4 threads 128", gemm));
  EXPECT_FALSE(extends_config(gemm, gemm));
  EXPECT_FALSE(extends_config(gemm + " fused 1", gemm));  // another config of the same kernel
  EXPECT_FALSE(extends_config(gemm + "; ", gemm));          // no kernel after the separator
  EXPECT_FALSE(extends_config("sm90a rows access 4 threads 128; " + gemm, gemm));
  EXPECT_FALSE(extends_config(gemm, ""));
}

}  // namespace
}  // namespace ucutlass::store
