#pragma once
// printf into a string of exactly the length it needs. Report lines grow with names and counts, and a
// fixed buffer cuts them off without a word (a 256-byte one lost the end of the summary's ~330-character
// re-measured line in session 24).
#include <string>

namespace ucutlass {

__attribute__((format(printf, 1, 2))) std::string printf_string(const char* format, ...);

}  // namespace ucutlass
