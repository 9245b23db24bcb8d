#include "support/phase_timer.h"

#include <cstdio>
#include <mutex>
#include <nlohmann/json.hpp>
#include <vector>

namespace ucutlass {

namespace {

struct PhaseRecord {
  std::string name;
  long count = 0;
  double total_ms = 0;
};

struct PhaseTable {
  std::mutex mu;
  bool enabled = false;
  std::vector<PhaseRecord> records;  // few phases: a linear scan beats a map
};

PhaseTable& table() {
  static PhaseTable t;
  return t;
}

}  // namespace

void enable_phase_stats(bool on) { table().enabled = on; }
bool phase_stats_enabled() { return table().enabled; }

PhaseTimer::PhaseTimer(const char* name) : name_(name), active_(table().enabled) {
  if (active_) start_ = std::chrono::steady_clock::now();
}

PhaseTimer::~PhaseTimer() {
  if (!active_) return;
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  PhaseTable& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  for (PhaseRecord& r : t.records)
    if (r.name == name_) {
      ++r.count;
      r.total_ms += ms;
      return;
    }
  t.records.push_back({name_, 1, ms});
}

std::string phase_stats_table() {
  PhaseTable& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  std::string out = "phase                 count    total ms      avg us\n";
  char line[160];
  for (const PhaseRecord& r : t.records) {
    std::snprintf(line, sizeof line, "%-20s %6ld %11.3f %11.1f\n", r.name.c_str(), r.count, r.total_ms,
                  1000.0 * r.total_ms / static_cast<double>(r.count));
    out += line;
  }
  return out;
}

nlohmann::json phase_stats_json() {
  PhaseTable& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  nlohmann::json j = nlohmann::json::array();
  for (const PhaseRecord& r : t.records)
    j.push_back({{"phase", r.name}, {"count", r.count}, {"total_ms", r.total_ms}});
  return j;
}

double phase_total_ms(const std::string& name) {
  PhaseTable& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  for (const PhaseRecord& r : t.records)
    if (r.name == name) return r.total_ms;
  return 0;
}

}  // namespace ucutlass
