#pragma once
// A SolReport as JSON (schema "ucutlass-sol-report" version 1, docs/sol.md)
// and as text for people. Numbers in the JSON are rounded to 6 significant
// digits (counts stay exact integers), so golden files do not churn on the
// last bits of a double.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "sol/sol_report.h"
#include "sol/verdict.h"

namespace ucutlass::sol {

struct MeasuredTime {
  double time_s = 0;
  std::optional<double> baseline_s;
  double delta = 0.05;
  Verdict verdict;
};

MeasuredTime measure_against(const SolReport& r, double time_s, std::optional<double> baseline_s, double delta);

nlohmann::json report_json(const SolReport& r, const graph::OpGraph& g, const MeasuredTime* measured);
std::string report_text(const SolReport& r, const graph::OpGraph& g, const MeasuredTime* measured);

// x rounded to 6 significant digits (0 stays 0).
double round6(double x);

}  // namespace ucutlass::sol
