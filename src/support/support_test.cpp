#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "support/diagnostic.h"
#include "support/did_you_mean.h"
#include "support/file_text.h"
#include "support/printf_string.h"
#include "support/sha256.h"
#include "support/source_file.h"

namespace ucutlass {
namespace {

TEST(PrintfString, TakesTheLengthItNeeds) {
  EXPECT_EQ(printf_string("%-6s|%3d|%.2f", "ab", 7, 1.5), "ab    |  7|1.50");
  const std::string name(1000, 'x');  // longer than any fixed line buffer the reports had
  EXPECT_EQ(printf_string("%s end", name.c_str()), name + " end");
  EXPECT_EQ(printf_string("%s", ""), "");
}

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(DidYouMean, FindsCloseNamesOnly) {
  std::vector<std::string> names = {"cooperative", "pingpong", "warpspecialized", "auto"};
  EXPECT_EQ(closest_name("cooperativ", names), "cooperative");
  EXPECT_EQ(closest_name("pinpong", names), "pingpong");
  EXPECT_EQ(closest_name("xyz", names), "");
  EXPECT_EQ(edit_distance("ab", "ba"), 1);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3);
}

TEST(SourceFile, LineAndColumn) {
  SourceFile f("x.dsl", "ab\ncd\n\nef");
  EXPECT_EQ(f.line_col(0).line, 1);
  EXPECT_EQ(f.line_col(4).line, 2);
  EXPECT_EQ(f.line_col(4).column, 2);
  EXPECT_EQ(f.line_text(2), "cd");
  EXPECT_EQ(f.line_text(3), "");
  EXPECT_EQ(f.line_text(4), "ef");
  EXPECT_EQ(f.line_col(100).line, 4);
}

TEST(Diagnostic, RendersLocationCaretLegalAndHint) {
  SourceFile f("k.dsl", "kernel k = gemm()\n  .with_tile(100, 128, 64)\n");
  Diagnostics d(f);
  d.error(Span{31, 34}, "tile M = 100 is not a multiple of 64", "64, 128, 192, 256", "use 128");
  EXPECT_EQ(d.render(),
            "k.dsl:2:14: error: tile M = 100 is not a multiple of 64\n"
            "    .with_tile(100, 128, 64)\n"
            "               ^~~\n"
            "  legal: 64, 128, 192, 256\n"
            "  hint: use 128\n");
  EXPECT_TRUE(d.has_errors());
}

TEST(Diagnostic, BinaryBytesAreMadePrintable) {
  SourceFile f("b.dsl", std::string("\x01\x02zz\xff", 5));
  Diagnostics d(f);
  d.error(Span{2, 4}, "bad");
  EXPECT_EQ(d.render(), "b.dsl:1:3: error: bad\n  ??zz?\n    ^~\n");
}

}  // namespace
}  // namespace ucutlass

namespace ucutlass {
namespace {

TEST(FileText, WritesWholeAndReadsBack) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("ucutlass_file_text_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string text = "unchanged";
  EXPECT_FALSE(read_file_text(dir / "missing", &text));
  EXPECT_EQ(text, "unchanged");
  ASSERT_TRUE(write_file_atomically(dir / "f.txt", std::string("a\0b", 3)));
  ASSERT_TRUE(write_file_atomically(dir / "f.txt", "second"));  // replaces the old file whole
  EXPECT_FALSE(std::filesystem::exists(dir / "f.txt.tmp"));
  ASSERT_TRUE(read_file_text(dir / "f.txt", &text));
  EXPECT_EQ(text, "second");
  EXPECT_FALSE(write_file_atomically(dir / "no_such_dir" / "f.txt", "x"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ucutlass
