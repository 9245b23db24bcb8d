// docs/coverage.md is a contract: every row that says "supported" or
// "rejected" names tests that exist, so the table cannot claim what no test
// shows. Test names are checked against the tests registered in this binary;
// paths against the repository.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace ucutlass {
namespace {

std::set<std::string> registered_tests() {
  std::set<std::string> out;
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  for (int i = 0; i < unit.total_test_suite_count(); ++i) {
    const ::testing::TestSuite& suite = *unit.GetTestSuite(i);
    for (int j = 0; j < suite.total_test_count(); ++j)
      out.insert(std::string(suite.name()) + "." + suite.GetTestInfo(j)->name());
  }
  return out;
}

std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line.substr(1));
  std::string cell;
  while (std::getline(ss, cell, '|')) out.push_back(cell);
  return out;
}

TEST(Coverage, EverySupportedOrRejectedRowNamesExistingTests) {
  const std::filesystem::path root(UCUTLASS_SOURCE_DIR);
  std::ifstream in(root / "docs/coverage.md");
  ASSERT_TRUE(in) << "docs/coverage.md is missing";
  const std::set<std::string> tests = registered_tests();
  const std::regex quoted("`([^`]+)`");
  int rows = 0;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| ", 0) != 0 || line.rfind("| feature", 0) == 0) continue;
    const std::vector<std::string> c = cells(line);
    ASSERT_EQ(c.size(), 5u) << "a row needs feature | syntax | sm90a | sm80 | tests: " << line;
    ++rows;
    const bool claims = c[2].find("supported") != std::string::npos || c[2].find("rejected") != std::string::npos ||
                        c[3].find("supported") != std::string::npos || c[3].find("rejected") != std::string::npos;
    int named_tests = 0;
    for (auto it = std::sregex_iterator(c[4].begin(), c[4].end(), quoted); it != std::sregex_iterator(); ++it) {
      const std::string name = (*it)[1];
      if (name.find('/') != std::string::npos && name.find('.') != std::string::npos &&
          std::filesystem::exists(root / name))
        continue;  // a path: examples/..., bench/...
      EXPECT_TRUE(tests.count(name)) << "docs/coverage.md names test '" << name << "', which does not exist";
      ++named_tests;
    }
    if (claims) EXPECT_GE(named_tests, 1) << "row claims a status but names no test: " << c[0];
  }
  EXPECT_GE(rows, 30) << "the coverage table lost rows";
}

}  // namespace
}  // namespace ucutlass
