#include "support/install_paths.h"

#include <filesystem>

#include "support/build_info.h"

namespace ucutlass {

namespace fs = std::filesystem;

std::string find_install_dir(const std::string& relative) {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (fs::path dir = exe.parent_path(); !dir.empty(); dir = dir.parent_path()) {
      if (fs::is_directory(dir / relative, ec)) return (dir / relative).string();
      if (dir == dir.root_path()) break;
    }
  }
  return std::string(UCUTLASS_SOURCE_ROOT) + "/" + relative;
}

}  // namespace ucutlass
