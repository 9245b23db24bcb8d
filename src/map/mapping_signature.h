#pragma once
// Which kernels a problem's solution is made of, as their names in the DSL program (gemm0, gemm1,
// attn0, rows0, ...): the names follow the anchors the matcher found, so two programs with the same
// signature map the problem the same way and differ only in their configurations. The scheduler uses
// it to tell whether today's mapping of a problem has a correct attempt in a campaign's store (level3/003's
// attention kernel, in place of its two GEMMs, had only incorrect ones before its split scores existed).
#include <string>
#include <vector>

#include "map/gemm_match.h"

namespace ucutlass::map {

// The sorted, comma-joined names of the program's `kernel NAME = ...` declarations.
std::string mapping_signature(const std::string& dsl);

// The same of a mapping's kernels, as the DSL writer names them.
std::string mapping_signature(const std::vector<GemmMatch>& kernels);

}  // namespace ucutlass::map
