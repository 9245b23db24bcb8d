#pragma once
// PyTorch's times for a problem from a KernelBench baseline JSON, as `python3 -m ucutlass_harness
// baselines DIR` writes it: keys <level> and <level>_compile (the problem file's folder), one entry per
// problem file name with KernelBench's mean/std/min/max/num_trials and our median and timing_window.
#include <string>

#include <nlohmann/json.hpp>

namespace ucutlass {

struct BaselineTimes {
  double eager_ms = 0, compile_ms = 0;  // the median when recorded (the harness compares medians), else the mean; 0 = absent
  // Every time found carries `timing_window`: it was taken with the event window candidates are timed
  // in now (start->mid unless other streams worked, docs/formats.md). An older file's figures are
  // start->end, which adds the harness's own synchronize (10-30 us), and must not be compared with them.
  bool current = true;
};

BaselineTimes baseline_times(const nlohmann::json& doc, const std::string& problem_py);

}  // namespace ucutlass
