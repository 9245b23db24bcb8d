#include "support/source_file.h"

#include <algorithm>

namespace ucutlass {

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (uint32_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
}

std::string_view SourceFile::slice(Span s) const {
  uint32_t b = std::min<uint32_t>(s.begin, text_.size());
  uint32_t e = std::min<uint32_t>(std::max(s.end, b), text_.size());
  return std::string_view(text_).substr(b, e - b);
}

LineCol SourceFile::line_col(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, text_.size());
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  int line = static_cast<int>(it - line_starts_.begin());
  return {line, static_cast<int>(offset - line_starts_[line - 1]) + 1};
}

std::string_view SourceFile::line_text(int line) const {
  if (line < 1 || line > static_cast<int>(line_starts_.size())) return {};
  uint32_t b = line_starts_[line - 1];
  uint32_t e = line < static_cast<int>(line_starts_.size()) ? line_starts_[line] - 1
                                                            : static_cast<uint32_t>(text_.size());
  std::string_view v = std::string_view(text_).substr(b, e - b);
  if (!v.empty() && v.back() == '\r') v.remove_suffix(1);
  return v;
}

}  // namespace ucutlass
