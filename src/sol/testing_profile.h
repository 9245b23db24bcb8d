#pragma once
// Tests only: the H200 datasheet profile, which the ranking and writer tests
// price against so that their expectations do not depend on the local GPU.
#include <string>

#include <gtest/gtest.h>

#include "sol/profile_selection.h"

namespace ucutlass::sol::testing {

inline const GpuProfile& h200() {
  static const GpuProfile p = [] {
    SelectedProfile s;
    std::string err;
    EXPECT_TRUE(select_profile({"H200", "", false}, &s, &err)) << err;
    return s.profile;
  }();
  return p;
}

}  // namespace ucutlass::sol::testing
