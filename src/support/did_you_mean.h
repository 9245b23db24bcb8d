#pragma once
// "Did you mean" suggestions for unknown names, by edit distance.
#include <string>
#include <string_view>
#include <vector>

namespace ucutlass {

// Optimal-string-alignment distance (Levenshtein plus adjacent swaps).
int edit_distance(std::string_view a, std::string_view b);

// The closest candidate within a distance that scales with the word length,
// or "" when nothing is close enough to be a plausible typo.
std::string closest_name(std::string_view word, const std::vector<std::string>& candidates);

// "a, b, c" for a "legal:" line.
std::string join_names(const std::vector<std::string>& names, std::string_view sep = ", ");

}  // namespace ucutlass
