#pragma once
// An attempt's config text as the store keeps it: each kernel's config summary
// (map::KernelConfig::summary), "; " between kernels, in the problem's kernel order. Read back kernel by
// kernel by the resume (which picks of today's ranked lists a recorded attempt was) and by the
// discredited rule (which math path each kernel ran).
#include <string>
#include <vector>

namespace ucutlass::store {

// The kernels' summaries, in order; one (empty) for an empty config.
std::vector<std::string> config_kernels(const std::string& config);

// The config text of kernels with these summaries.
std::string config_text(const std::vector<std::string>& kernels);

// Whether `longer` runs the kernels of `shorter`, in order, with one or more kernels after them.
bool extends_config(const std::string& longer, const std::string& shorter);

}  // namespace ucutlass::store
