// The DSL documentation cannot drift from the compiler: every ```dsl block of
// docs/dsl.md and docs/dsl-card.md must pass the front end without a single
// diagnostic, and every ```dsl-error block must be rejected.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "compiler/frontend.h"

namespace ucutlass {
namespace {

struct DocBlock {
  std::string doc;  // path relative to the source root
  int line = 0;     // 1-based line of the opening fence
  bool expect_error = false;
  std::string text;
};

std::string read_doc(const std::string& rel) {
  std::ifstream in(std::string(UCUTLASS_SOURCE_DIR) + "/" + rel, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Fences are exactly "```dsl" or "```dsl-error" at the start of a line and a
// bare "```" to close; other fenced blocks (ebnf, sh, plain) are skipped.
std::vector<DocBlock> dsl_blocks(const std::string& rel) {
  std::vector<DocBlock> out;
  std::istringstream in(read_doc(rel));
  std::string line;
  int n = 0;
  bool in_dsl = false, other_fence = false;
  while (std::getline(in, line)) {
    ++n;
    if (in_dsl) {
      if (line == "```") in_dsl = false;
      else out.back().text += line + "\n";
    } else if (other_fence) {
      if (line == "```") other_fence = false;
    } else if (line == "```dsl" || line == "```dsl-error") {
      out.push_back({rel, n, line == "```dsl-error", ""});
      in_dsl = true;
    } else if (line.starts_with("```")) {
      other_fence = true;
    }
  }
  EXPECT_FALSE(in_dsl) << rel << ": a ```dsl block is not closed";
  return out;
}

// Leading newlines put the block at its own line numbers, so a failure reads
// as an error in the document itself: docs/dsl.md:123:5: error: ...
FrontendResult check_block(const DocBlock& b) { return run_frontend(b.doc, std::string(b.line, '\n') + b.text); }

class DocExamples : public ::testing::TestWithParam<std::string> {};

TEST_P(DocExamples, LegalBlocksPassAndErrorBlocksFail) {
  std::vector<DocBlock> blocks = dsl_blocks(GetParam());
  ASSERT_FALSE(blocks.empty()) << GetParam() << " has no ```dsl blocks";
  for (const DocBlock& b : blocks) {
    FrontendResult r = check_block(b);
    if (b.expect_error) {
      EXPECT_TRUE(r.diags->has_errors()) << b.doc << ":" << b.line << ": a ```dsl-error block passed the front end";
    } else {
      EXPECT_TRUE(r.ok && r.diags->all().empty()) << r.diags->render();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Docs, DocExamples, ::testing::Values("docs/dsl.md", "docs/dsl-card.md"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param == "docs/dsl.md" ? std::string("reference") : std::string("card");
                         });

TEST(DocCard, FitsOnOnePage) {
  std::string card = read_doc("docs/dsl-card.md");
  EXPECT_LE(std::count(card.begin(), card.end(), '\n'), 120) << "docs/dsl-card.md must stay within 120 lines";
}

}  // namespace
}  // namespace ucutlass
