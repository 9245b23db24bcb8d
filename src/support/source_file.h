#pragma once
// A source text with its name, and the mapping from byte offsets to lines and
// columns that every diagnostic needs.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ucutlass {

// Half-open byte range [begin, end) into one SourceFile.
struct Span {
  uint32_t begin = 0;
  uint32_t end = 0;
  bool operator==(const Span&) const = default;
};

struct LineCol {
  int line = 1;    // 1-based
  int column = 1;  // 1-based, in bytes
};

class SourceFile {
 public:
  SourceFile(std::string path, std::string text);

  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  std::string_view slice(Span s) const;
  LineCol line_col(uint32_t offset) const;
  // The text of 1-based line `line`, without its newline.
  std::string_view line_text(int line) const;

 private:
  std::string path_;
  std::string text_;
  std::vector<uint32_t> line_starts_;
};

}  // namespace ucutlass
