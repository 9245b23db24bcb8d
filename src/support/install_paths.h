#pragma once
// Finding ucutlass's own files (data/gpus, python/) at run time: the binary
// lives in build/ of a checkout, which may have been copied to another machine,
// so paths are found relative to the executable first and the source tree the
// binary was built from second.
#include <string>

namespace ucutlass {

// The first `relative` directory found in the executable's directory or one
// above it, else under the source root ucutlass was built from.
std::string find_install_dir(const std::string& relative);

}  // namespace ucutlass
