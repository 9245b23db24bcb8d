#pragma once
// The Python side of ucutlass (python/: the harness worker, the calibration
// worker) runs where PyTorch is. C++ starts it as `python3 -m MODULE ...` with
// our python/ folder on PYTHONPATH and talks to it through JSON on stdout.
#include <string>
#include <vector>

#include "exec/subprocess.h"

namespace ucutlass {

// $UCUTLASS_PYTHON, else python3.
std::string python_executable();

ProcessResult run_python_module(const std::string& module, const std::vector<std::string>& args,
                                ProcessOptions options = {});

// The harness reports its own failures as {"format": "ucutlass-error",
// "error": "..."} on stdout; this returns that message, or the last lines of
// stderr (where Python puts a traceback), or "" when there is neither.
std::string python_failure_reason(const ProcessResult& r);

}  // namespace ucutlass
