#pragma once
// Scoped phase timers in the spirit of Ninja's METRIC_RECORD: free unless
// stats collection is on (`--stats`), then each named phase reports its count
// and total time when the process prints the table.
#include <chrono>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace ucutlass {

void enable_phase_stats(bool on);
bool phase_stats_enabled();

class PhaseTimer {
 public:
  explicit PhaseTimer(const char* name);
  ~PhaseTimer();
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

 private:
  const char* name_;
  std::chrono::steady_clock::time_point start_;
  bool active_;
};

// "phase  count  total ms  avg us" lines, in first-use order.
std::string phase_stats_table();
nlohmann::json phase_stats_json();
// Total milliseconds recorded under `name` (0 when never run).
double phase_total_ms(const std::string& name);

}  // namespace ucutlass
