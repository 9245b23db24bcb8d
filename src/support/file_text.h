#pragma once
// Whole files as text: read in one go, written so a reader never sees half of one.
#include <filesystem>
#include <string>

namespace ucutlass {

// The file's bytes into `text`; false when it cannot be opened.
bool read_file_text(const std::filesystem::path& path, std::string* text);

// Writes `text` to PATH.tmp, then renames it over `path`: a process killed mid-write (a campaign's
// kill -9) leaves the old file or none, never a cut-short one that a resume would misread. False when
// the write or the rename failed.
bool write_file_atomically(const std::filesystem::path& path, const std::string& text);

}  // namespace ucutlass
