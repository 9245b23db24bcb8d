#pragma once
// Whether the ranking's unmeasured pick may stay written as a problem's solution. Where no verified
// program stands, optimize writes the best-ranked one unmeasured (a CPU-only run's answer, and a campaign's
// start). That is honest only while the harness has not spoken against it: once the store records a
// failed evaluation of that very program, or a reference that disagrees with itself (active dropout,
// random ops: no candidate can ever pass), the file is a solution the harness failed, and none is written.
// Session 32's verify run found one: kernelbench-v0.1 level2/028 (Linear + training-mode dropout) had two
// incorrect attempts and no other, and its written modelnew.py was the first of them, program 8da7679f.
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "store/run_store.h"

namespace ucutlass::store {

// Why the unmeasured pick `hash` of one problem may not stay written, or "" where it may. `rows`: the
// problem's attempts; `discredited`: its programs a re-measurement spoke against (store/discredited.h).
std::string failed_pick_reason(const std::vector<AttemptRow>& rows, const std::string& hash, const std::set<std::string>& discredited);

// The harness's `nondeterministic_reference` signal fired among `signals` (a result's "signals" array),
// or in an attempt row's signals text.
bool reference_disagrees_with_itself(const nlohmann::json& signals);
bool reference_disagrees_with_itself(const std::string& signals_json);

}  // namespace ucutlass::store
