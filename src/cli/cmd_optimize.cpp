// `ucutlass optimize PROBLEM|DIR`: the built-in, zero-token optimizer.
// Per problem: trace -> SOL -> match GEMMs -> legal configs ranked -> best
// ranked solution written (modelnew.py, kernel.dsl, report.txt); then, on a
// GPU machine, attempts evaluated by the harness under the budget scheduler,
// every attempt recorded in the campaign's run store (resumable). Without a
// GPU it stops before the GPU step and says so. docs/optimize.md.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <cstdio>
#include <iostream>
#include <map>
#include <set>
#include <iomanip>
#include <sstream>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "build/builder.h"
#include "build/kernel_cache.h"
#include "cli/command.h"
#include "cli/policy_options.h"
#include "exec/baseline_file.h"
#include "exec/harness_batch.h"
#include "exec/correctness_rules.h"
#include "exec/unrecorded_evaluations.h"
#include "graph/decompose_attention.h"
#include "graph/graph_reader.h"
#include "graph/trace_cache.h"
#include "map/gemm_match.h"
#include "map/mapping_signature.h"
#include "map/row_match.h"
#include "report/problem_report.h"
#include "report/progress.h"
#include "report/store_outcomes.h"
#include "sched/budget_scheduler.h"
#include "sched/remeasure_queue.h"
#include "sched/round_fill.h"
#include "sched/round_start.h"
#include "store/config_kernels.h"
#include "store/discredited.h"
#include "store/failed_pick.h"
#include "search/config_space.h"
#include "search/cost_model.h"
#include "search/conv_space.h"
#include "search/next_expectation.h"
#include "search/refine.h"
#include "sol/profile_selection.h"
#include "sol/sol_report.h"
#include "solution/modelnew_writer.h"
#include "store/run_store.h"
#include "support/sha256.h"

namespace ucutlass::cli {

namespace {

namespace fs = std::filesystem;

struct OptimizeArgs {
  std::string target;
  std::string out = "optimize_out";
  std::string store;
  std::string tolerance = "kernelbench";
  std::string gpu;
  sched::Policy policy;  // --epsilon, --window, --budget, --suite-budget (cli/policy_options.h)
  double wall_budget_s = 0;  // 0 = no cap on the GPU step's wall time
  // The harness times each attempt for at least this long (its own default is 1000 ms, for figures
  // that repeat to < 3 % on a power-bound kernel). A search ranks many attempts: 300 ms keeps an
  // evaluation ~15 % longer than the 100-trial window of before instead of ~40 %, and its spread within
  // ~4 % on the worst (power-bound) kernel (bench.md, H200 2026-11-30).
  double timing_min_ms = 300;
  // Each written solution is evaluated once more in this window (sched/remeasure_queue.h): the
  // harness's own default, so the re-measured figure is what `ucutlass eval` of the file would say.
  double remeasure_ms = 1000;
  bool no_remeasure = false;
  bool no_gpu = false;
  bool plan = false;  // print the scheduler's next round from the store, then stop: no build, no GPU
  bool no_compile = false;
  bool spell_out_attention = false;  // also where other GEMMs map (the A/B measurement of level3/005)
  int jobs = 2;
  int batch = 4;              // attempts of one problem per round
  int batch_problems = 4;     // problems per round: their attempts build in parallel, one harness batch
  bool no_round_fill = false;  // keep --batch even when few problems are open (sched/round_fill.h)
  std::string baselines_file; // KernelBench baseline JSON (harness `baselines`): eager / compile times
  std::string ext_cache;      // TORCH_EXTENSIONS_DIR of every attempt ("" = OUT/torch_extensions)
  std::string devices;        // GPUs evaluating a round's attempts at once ("0,1", "all"; "" = GPU 0)
};

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_text(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

// One problem as the optimizer holds it between steps.
struct Problem {
  std::string file, name;
  std::string problem_py;  // the KernelBench problem file (for a graph JSON, the file it was traced from)
  std::string source;      // its text, which every solution embeds
  graph::OpGraph graph;
  double sol_ms = 0;
  // The scheduler's t_SOL: the fused bound of the problem as written, also where a degenerate one's
  // floor (sol_ms) is its reduced problem's. The optimizer never exploits degeneracy (it writes the
  // whole GEMM), so a reduced floor was headroom no attempt could take: level2/015 and 016 were the
  // first picks of the kernelbench campaign's rounds on it (--plan, 2026-12-01).
  double sched_sol_ms = 0;
  double eager_ms = 0, compile_ms = 0;  // from --baselines, else measured with the first batch
  double unmapped_s = 0;                  // the ops left to PyTorch (search::unmapped_ops_seconds)
  map::MatchReport matches;
  std::vector<std::vector<search::Candidate>> candidates;  // per gemm, ranked
  std::vector<std::vector<search::Measured>> measured;  // per gemm, every attempt's index and time
  // A resume's fastest recorded pick whose program today's code writes differently: measured again
  // first (sched::ProblemState::stale_best). Cleared when it joins a round.
  std::optional<std::vector<size_t>> remeasure;
  // A resume's untried lead: the ranking's best honest pick when the store holds no attempt of its
  // precision path (untried_lead_pick); tried ahead of the walk (sched::ProblemState::untried_lead).
  std::optional<std::vector<size_t>> lead;
  std::optional<double> written_ms;  // the time measured for the program in modelnew.py, once there is one
  std::string written_hash, written_modelnew;  // that program's hash and file, once there is one
  bool written_built_here = false;             // written by an attempt of this run (its extension is built)
  std::string remeasure_queued_hash;           // the written program this run last queued a re-measurement of
  // The ranking's pick written unmeasured where no verified program stands (its program's hash), taken
  // back once the harness fails it (store/failed_pick.h).
  std::string unmeasured_hash;
  std::string skipped;
  fs::path dir;
};

std::vector<std::string> problem_files(const std::string& target) {
  std::vector<std::string> files;
  if (fs::is_directory(target)) {
    for (const auto& e : fs::recursive_directory_iterator(target))
      if (e.is_regular_file() && (e.path().extension() == ".py" || e.path().extension() == ".json") &&
          e.path().filename().string()[0] != '_')
        files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
  } else {
    files.push_back(target);
  }
  return files;
}

// Each gemm's best-ranked candidate that is not speculative (or its last):
// the solution written before any GPU measurement.
std::vector<const search::Candidate*> best_honest(const Problem& p) {
  std::vector<const search::Candidate*> out;
  for (const auto& list : p.candidates) {
    size_t i = 0;
    while (i + 1 < list.size() && list[i].speculative) ++i;
    out.push_back(&list[i]);
  }
  return out;
}

// best_honest as a pick: the index of each kernel's best honest candidate in its list.
std::vector<size_t> best_honest_pick(const Problem& p) {
  const std::vector<const search::Candidate*> best = best_honest(p);
  std::vector<size_t> pick;
  for (size_t g = 0; g < best.size(); ++g) pick.push_back(static_cast<size_t>(best[g] - p.candidates[g].data()));
  return pick;
}

// The ranking model's time of one pick (a candidate per kernel) and of the unmapped ops. Recorded with
// each attempt (the store's estimate_ms, 0 in every store before session 18), so the model can be
// checked against what each attempt measured, not only against each problem's best.
double pick_estimate_ms(const Problem& p, const std::vector<size_t>& pick) {
  double ms = p.unmapped_s * 1e3;
  for (size_t g = 0; g < pick.size() && g < p.candidates.size(); ++g)
    if (pick[g] < p.candidates[g].size()) ms += p.candidates[g][pick[g]].estimate_s * 1e3;
  return ms;
}

// The written solution's predicted time (ms): the ranking model's sum over its kernels, their
// copies and unfused tails. What a GPU run is expected to confirm.
double predicted_ms(const Problem& p) { return pick_estimate_ms(p, best_honest_pick(p)); }

std::vector<map::KernelConfig> best_honest_configs(const Problem& p) {
  std::vector<map::KernelConfig> out;
  for (const search::Candidate* c : best_honest(p)) out.push_back(c->config);
  return out;
}

// Up to `k` next attempts, each a candidate index per gemm (search/refine.h);
// none when every gemm's list is spent. A gemm whose list is shorter than
// another's keeps its best measured candidate in the extra attempts.
std::vector<std::vector<size_t>> next_attempts(const Problem& p, size_t k) {
  std::vector<std::vector<size_t>> per_gemm;
  size_t n = 0;
  for (size_t g = 0; g < p.candidates.size(); ++g) {
    per_gemm.push_back(search::next_candidates(p.candidates[g], p.measured[g], k));
    n = std::max(n, per_gemm.back().size());
  }
  std::vector<std::vector<size_t>> out(n);
  for (size_t j = 0; j < n; ++j)
    for (size_t g = 0; g < per_gemm.size(); ++g)
      out[j].push_back(j < per_gemm[g].size() ? per_gemm[g][j] : search::best_measured(p.measured[g]).value_or(0));
  return out;
}

// The problem file a graph JSON was traced from: as recorded when it exists (absolute, or relative to
// the working directory), else the same relative path under the graph file's folder or a folder above
// it (tests/optimize/graphs/*.json name problems/... relative to the repository root), else as recorded.
std::string problem_of_graph(const std::string& graph_file, const std::string& recorded) {
  if (recorded.empty() || fs::is_regular_file(recorded) || fs::path(recorded).is_absolute()) return recorded;
  for (fs::path dir = fs::absolute(graph_file).parent_path(); !dir.empty(); dir = dir.parent_path()) {
    if (fs::is_regular_file(dir / recorded)) return (dir / recorded).lexically_normal().string();
    if (dir == dir.parent_path()) break;
  }
  return recorded;
}

// `inaccurate` (it ran, its outputs missed the tolerance) marks every kernel of the pick: which one
// missed is not known, and a more accurate path for each is still correct.
void record_measured(Problem& p, const std::vector<size_t>& pick, std::optional<double> time_ms, bool inaccurate = false) {
  for (size_t g = 0; g < pick.size(); ++g) p.measured[g].push_back({pick[g], time_ms, inaccurate});
}

// The same for an attempt an earlier run stored. A miss judged under older, stricter correctness rules
// is not held against its path.
void record_stored(Problem& p, const std::vector<size_t>& pick, const store::AttemptRow& r) {
  record_measured(p, pick, r.verdict == "ok" && r.time_ms > 0 ? std::optional(r.time_ms) : std::nullopt,
                  missed_tolerance_now(r.verdict, r.result_json));
}

// The configs of a pick, one per GEMM.
std::vector<map::KernelConfig> configs_of(const Problem& p, const std::vector<size_t>& pick) {
  std::vector<map::KernelConfig> configs;
  for (size_t g = 0; g < pick.size(); ++g) configs.push_back(p.candidates[g][pick[g]].config);
  return configs;
}

using RecordedPick = std::optional<std::vector<size_t>>;

// Each recorded attempt's pick in today's ranked lists, from its config (the store keeps the configs'
// summaries, "; " between GEMMs); none where a GEMM's config is not among today's candidates.
std::vector<RecordedPick> recorded_picks(const Problem& p, const std::vector<store::AttemptRow>& rows) {
  std::vector<std::map<std::string, size_t>> index(p.candidates.size());
  for (size_t g = 0; g < p.candidates.size(); ++g)
    for (size_t i = 0; i < p.candidates[g].size(); ++i) index[g].emplace(p.candidates[g][i].config.summary(), i);
  std::vector<RecordedPick> picks;
  for (const store::AttemptRow& r : rows) {
    const std::vector<std::string> kernels = store::config_kernels(r.config);
    std::vector<size_t> pick;
    for (size_t g = 0; g < index.size() && kernels.size() == index.size(); ++g) {
      auto it = index[g].find(kernels[g]);
      if (it == index[g].end()) break;
      pick.push_back(it->second);
    }
    const bool whole = pick.size() == index.size() && !pick.empty();
    picks.push_back(whole ? RecordedPick(std::move(pick)) : std::nullopt);
  }
  return picks;
}

// A recorded attempt of an older mapping of the problem, one with fewer kernels than today's (level2/011's
// logsumexp ran in PyTorch after its GEMM until the row kernel took it), as a pick in today's ranked lists:
// its kernels where each is still today's candidate, the ranking's lead for the kernels added since. None
// where the row has as many kernels as today's mapping or more, or a recorded kernel is no candidate.
// Such a row is no measurement of anything today's code writes, so it is measured again as this pick
// (adopt_recorded_best), which then supersedes it (store/superseded.h).
RecordedPick extended_pick(const Problem& p, const store::AttemptRow& r) {
  const std::vector<std::string> kernels = store::config_kernels(r.config);
  if (r.config.empty() || kernels.size() >= p.candidates.size()) return std::nullopt;
  std::vector<size_t> pick = best_honest_pick(p);
  for (size_t g = 0; g < kernels.size(); ++g) {
    const auto& list = p.candidates[g];
    auto it = std::find_if(list.begin(), list.end(), [&](const auto& c) { return c.config.summary() == kernels[g]; });
    if (it == list.end()) return std::nullopt;
    pick[g] = static_cast<size_t>(it - list.begin());
  }
  return pick;
}

// A resumed campaign's recorded attempts (`picks`: recorded_picks of `rows`), folded into p.measured up
// front: the refinement walks on from what was measured, and the scheduler's expectation of the next
// attempt is calibrated on the problem's best (search/next_expectation.h). Folding only the recorded
// picks the walk proposed again left a problem whose new candidates rank first (level1/016's GEMVs)
// with nothing measured, hence no expectation.
void fold_recorded_attempts(Problem& p, const std::vector<store::AttemptRow>& rows, const std::vector<RecordedPick>& picks,
                            const store::Discredited& discredited) {
  for (size_t k = 0; k < rows.size(); ++k) {
    if (!picks[k]) continue;
    if (discredited.programs.count(rows[k].hash))  // no correct result; a tolerance miss defers its path
      record_measured(p, *picks[k], std::nullopt, discredited.inaccurate.count(rows[k].hash) > 0);
    else
      record_stored(p, *picks[k], rows[k]);
  }
}

// A recorded program a re-measurement has just discredited (store/discredited.h), in the refinement state
// of this run: each kernel's measurement of its pick holds no correct time any more, and a tolerance
// miss defers its path as an incorrect attempt does.
void discredit_measured(Problem& p, const std::vector<size_t>& pick, bool inaccurate) {
  for (size_t g = 0; g < pick.size(); ++g)
    for (search::Measured& m : p.measured[g])
      if (m.index == pick[g]) {
        m.time_ms.reset();
        m.inaccurate = m.inaccurate || inaccurate;
      }
}

// `files` as the problem's written solution (modelnew.py, kernel.dsl), measured at `ms`; `built_here`
// when an attempt of this run built it.
void write_solution(Problem& p, const solution::SolutionFiles& files, double ms, bool built_here) {
  write_text(p.dir / "modelnew.py", files.modelnew);
  write_text(p.dir / "kernel.dsl", files.dsl);
  p.written_ms = ms;
  p.written_hash = files.hash;
  p.written_modelnew = files.modelnew;
  p.written_built_here = built_here;
}

// The written program's re-measurement, where the store holds one, says it is no faster than eager
// timed beside it (sched::ProblemState::remeasured_not_faster).
bool written_remeasured_not_faster(const store::RunStore& store, const Problem& p) {
  if (p.written_hash.empty()) return false;
  for (const store::ConfirmationRow& c : store.confirmations(p.name))
    if (c.hash == p.written_hash) return report::remeasured_not_faster(c);
  return false;
}

// A resume's written solution: the fastest verified recorded attempt whose program today's code
// still writes for its configs (same hash) goes to modelnew.py and kernel.dsl, not the ranking's
// first pick; a program in `failed` (its re-measurement failed) is passed over. A faster recorded
// attempt whose program today's code writes differently (the emitted code changed since) is no
// measurement of what would be written: the fastest such pick is measured again first (p.remeasure).
// So is a faster recorded attempt of an older mapping with fewer kernels (extended_pick): session 30's
// level2/011 had two such attempts only (0.55 ms best), so the ranking's unmeasured pick stayed written
// while the store's best said 5.2x; its written program re-measured 4.4x. Returns whether there is one.
bool adopt_recorded_best(Problem& p, const std::vector<store::AttemptRow>& rows, const std::vector<RecordedPick>& picks,
                         const std::string& cutlass_dir, const std::set<std::string>& failed) {
  // Only an attempt that can stand for a written solution (report::standing_attempts, the summary's
  // rule): a row a later one superseded (store/superseded.h) was measured again already, as that row, so an
  // older mapping's row whose extension ran with another row kernel than today's lead (v0.1 level2/027) is
  // not stale for want of the lead's program, which would be measured once more on every resume.
  const std::vector<bool> stands = report::standing_attempts(rows, failed);
  std::vector<size_t> order(rows.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return rows[a].time_ms < rows[b].time_ms; });
  for (size_t k : order) {
    const store::AttemptRow& r = rows[k];
    if (!stands[k]) continue;
    const RecordedPick pick = picks[k] ? picks[k] : extended_pick(p, r);
    if (!pick) continue;
    const solution::SolutionFiles sf =
        solution::make_solution(p.source, p.graph, p.matches.gemms, configs_of(p, *pick), cutlass_dir);
    if (!sf.error.empty()) continue;
    if (sf.hash == r.hash) {
      write_solution(p, sf, r.time_ms, false);
      break;
    }
    // Measured again already (an attempt holds today's program for these configs): that row speaks
    // for it below. Marking it stale again put level2/002's and four other problems first in every
    // round of session 18's plans, for a pick that was then found settled.
    const bool remeasured = std::any_of(rows.begin(), rows.end(), [&](const store::AttemptRow& o) { return o.hash == sf.hash; });
    if (!p.remeasure && !remeasured) p.remeasure = pick;
  }
  return p.remeasure.has_value();
}

// The precision path of a kernel config: what a change to the legal space adds as a whole (level1/011's
// padded K stacking made sm90a 3xBF16 legal where only sm80 3xTF32 had been).
auto path_of(const map::KernelConfig& c) {
  return std::make_tuple(c.arch, c.math, c.k_stack3, c.bf16_operands, c.gemv, c.rows, c.attention, c.form);
}

// On resume: the ranking's best honest pick, when some kernel's path in it has no recorded attempt
// (`picks`: recorded_picks of the store's rows; a row whose configs are not today's candidates counts
// by its config text). The ε/w window judged the paths that were tried; a path the model now ranks
// first was never judged, so it is owed one attempt before the window may stop the problem.
std::optional<std::vector<size_t>> untried_lead_pick(const Problem& p, const std::vector<store::AttemptRow>& rows,
                                                     const std::vector<RecordedPick>& picks) {
  if (rows.empty()) return std::nullopt;  // a fresh problem: the walk starts with the lead anyway
  const std::vector<size_t> lead = best_honest_pick(p);
  for (size_t g = 0; g < lead.size(); ++g) {
    const map::KernelConfig& want = p.candidates[g][lead[g]].config;
    const std::string summary = want.summary(), path_text = summary.substr(0, summary.find(" a="));
    bool tried = false;
    for (size_t k = 0; k < rows.size() && !tried; ++k)
      tried = picks[k] ? path_of(p.candidates[g][(*picks[k])[g]].config) == path_of(want)
                       : rows[k].config.find(path_text) != std::string::npos;
    if (!tried) return lead;
  }
  return std::nullopt;
}

// On resume: the written solution's recorded pick (adopt_recorded_best's choice: the fastest verified
// attempt whose program today's code still writes) with one GEMM's fused chain one step shorter
// (map::KernelConfig::fuse_steps), when no recorded attempt of the problem ever fused less than the
// longest chain. The window judged full chains only, and a costly epilogue step can lose to a PyTorch
// pass (level2/007: the bias fused and mish in PyTorch 0.241 ms, mish fused 0.343), so the shorter twin
// of the best is owed one attempt, as an untried lead is.
std::optional<std::vector<size_t>> shorter_chain_pick(const Problem& p, const std::vector<store::AttemptRow>& rows,
                                                      const std::vector<RecordedPick>& picks) {
  for (const store::AttemptRow& r : rows)
    if (r.config.find(" fused ") != std::string::npos) return std::nullopt;  // the knob has been tried
  std::optional<size_t> best;
  for (size_t k = 0; k < rows.size() && !best; ++k)
    if (picks[k] && !p.written_hash.empty() && rows[k].hash == p.written_hash) best = k;
  if (!best) return std::nullopt;
  std::vector<size_t> pick = *picks[*best];
  for (size_t g = 0; g < pick.size(); ++g) {
    const map::KernelConfig& c = p.candidates[g][pick[g]].config;
    if (c.fuse_steps != 0) continue;
    const std::string twin = c.summary() + " fused ";
    std::optional<size_t> longest;  // the twin that drops the fewest steps
    for (size_t j = 0; j < p.candidates[g].size(); ++j) {
      const map::KernelConfig& o = p.candidates[g][j].config;
      if (o.fuse_steps > 0 && o.summary().rfind(twin, 0) == 0 && (!longest || o.fuse_steps > p.candidates[g][*longest].config.fuse_steps))
        longest = j;
    }
    if (longest) {
      pick[g] = *longest;
      return pick;
    }
  }
  return std::nullopt;
}

// A written solution whose re-measurement failed is taken back: the next fastest verified program that
// has not failed one is written instead (and re-measured in turn, sched/remeasure_queue.h), or, where
// none is left, modelnew.py and kernel.dsl are removed: a solution the harness failed is never left
// written. `rows`: the problem's recorded attempts; `discredited`: the programs that are no verified result
// (store/discredited.h). Returns what was done, for the log.
std::string demote_written(Problem& p, const std::vector<store::AttemptRow>& rows, const std::vector<RecordedPick>& picks,
                           const std::set<std::string>& discredited, const std::string& cutlass_dir) {
  std::error_code ec;
  fs::remove(p.dir / "modelnew.py", ec);
  fs::remove(p.dir / "kernel.dsl", ec);
  p.written_ms.reset();
  p.written_hash.clear();
  p.written_modelnew.clear();
  p.written_built_here = false;
  adopt_recorded_best(p, rows, picks, cutlass_dir, discredited);
  if (!p.written_hash.empty()) {
    std::ostringstream o;
    o << "written now: program " << p.written_hash << " (" << *p.written_ms << " ms as an attempt), re-measured in turn";
    return o.str();
  }
  if (p.remeasure) return "no verified program left to write as it is; the fastest the code now writes differently is measured again first";
  return "no other verified program: modelnew.py and kernel.dsl removed";
}

// Where no verified program stands, the unmeasured pick in modelnew.py is removed (with kernel.dsl) once
// the harness has failed it (store/failed_pick.h). Returns what was done, for the log and report.txt, or
// "" where the files stay.
std::string withdraw_failed_pick(Problem& p, const std::vector<store::AttemptRow>& rows, const std::set<std::string>& discredited) {
  if (!p.written_hash.empty() || p.unmeasured_hash.empty() || !fs::exists(p.dir / "modelnew.py")) return "";
  const std::string why = store::failed_pick_reason(rows, p.unmeasured_hash, discredited);
  if (why.empty()) return "";
  std::error_code ec;
  fs::remove(p.dir / "modelnew.py", ec);
  fs::remove(p.dir / "kernel.dsl", ec);
  p.unmeasured_hash.clear();
  return "modelnew.py and kernel.dsl are not written: " + why;
}

// --plan's text: each picked problem with its expected gain, best and expected times, then its configs.
std::string plan_text(const nlohmann::json& plan) {
  size_t attempts = 0;
  for (const nlohmann::json& pick : plan) attempts += pick["configs"].size();
  std::ostringstream o;
  o << "next round (" << attempts << " attempt(s) of " << plan.size() << " problem(s), most expected gain first):\n";
  for (const nlohmann::json& pick : plan) {
    o << "  " << pick["problem"].get<std::string>();
    if (pick.value("stale_best", false))
      o << ": its best measured again first (today's code writes that program differently)";
    else
      o << ": expected gain " << pick["expected_gain"].get<double>();
    if (pick.value("new_mapping", false)) o << ", a mapping with no correct attempt yet";
    if (pick.value("untried_lead", false)) o << ", owed one attempt on a path or fused-chain length never tried";
    if (!pick["best_ms"].is_null()) o << ", best " << pick["best_ms"].get<double>() << " ms";
    if (!pick["next_expected_ms"].is_null())
      o << ", next expected " << pick["next_expected_ms"].get<double>() << " ms" << (pick["next_speculative"].get<bool>() ? " (speculative)" : "");
    o << "\n";
    for (const nlohmann::json& c : pick["configs"]) o << "    " << c.get<std::string>() << "\n";
  }
  return o.str();
}

// --plan's last line: what the stop rules leave the campaign, for planning device time.
std::string attempts_left_text(const nlohmann::json& left) {
  std::ostringstream o;
  o << "left: " << left["open"].get<int>() << " problem(s) open, " << left["unless_improved"].get<int>()
    << " attempt(s) unless a problem improves, at most " << left["at_most"].get<int>() << " by the budgets\n";
  return o.str();
}

// --plan's re-measurements of written solutions, after the round's attempts.
std::string remeasure_plan_text(const nlohmann::json& remeasures, double window_ms) {
  if (remeasures.empty()) return "";
  std::ostringstream o;
  o << "re-measured in the round (" << remeasures.size() << " written solution(s) evaluated again, " << window_ms << " ms window):\n";
  for (const nlohmann::json& m : remeasures)
    o << "  " << m["problem"].get<std::string>() << ": program " << m["hash"].get<std::string>() << ", "
      << m["attempt_ms"].get<double>() << " ms as an attempt" << (m["built_here"].get<bool>() ? "" : " (built again)") << "\n";
  return o.str();
}

// A re-measurement's row: the verdict, and the candidate's time where it passed.
store::ConfirmationRow confirmation_row(const std::string& problem, const std::string& hash, double window_ms, const BatchEvalResult& done) {
  const store::AttemptRow r = attempt_row(AttemptMeta{problem, hash, "", ""}, done.result, done.wall_s);
  return {0, problem, hash, r.verdict, r.verdict == "ok" ? r.time_ms : 0.0, window_ms, r.result_json, r.wall_s};
}

std::string report_text(const Problem& p, const solution::SolutionFiles& s) {
  std::ostringstream o;
  o << "problem " << p.name << " (" << p.file << ")\n";
  o << "t_SOL (fused bound) " << p.sol_ms << " ms\n";
  for (const std::string& n : p.matches.notes) o << "note: " << n << "\n";
  for (size_t g = 0; g < p.matches.gemms.size(); ++g) {
    o << map::describe(p.matches.gemms[g]) << "\n  legal candidates " << p.candidates[g].size() << "; best ranked:\n";
    for (size_t i = 0; i < std::min<size_t>(8, p.candidates[g].size()); ++i) {
      const search::Candidate& c = p.candidates[g][i];
      o << "    " << c.estimate_s * 1e3 << " ms  " << c.config.summary() << (c.speculative ? "  [speculative: GPU check decides]" : "")
        << "  (" << c.estimate_note << ")\n";
    }
  }
  const double estimate_ms = predicted_ms(p);
  o << "solution: program " << s.hash << ", estimated " << estimate_ms << " ms";
  if (p.eager_ms > 0) o << " (eager " << p.eager_ms << " ms, x" << p.eager_ms / estimate_ms << " predicted)";
  o << "\n";
  return o.str();
}

int run_optimize(const OptimizeArgs& a, const GlobalOptions& g) {
  auto tol = sol::parse_tolerance_profile(a.tolerance);
  if (!tol) {
    std::cerr << "ucutlass optimize: unknown --profile \"" << a.tolerance << "\"; legal: kernelbench, kernelbench-v0.1\n";
    return kExitUsage;
  }
  sol::SelectedProfile gpu;
  std::string err;
  if (!sol::select_profile({a.gpu, "", !a.no_gpu}, &gpu, &err)) {
    std::cerr << "ucutlass optimize: " << err << "\n";
    return kExitUsage;
  }
  // Inputs are checked before anything is written.
  if (!fs::exists(a.target)) {
    std::cerr << "ucutlass optimize: " << a.target << ": no such file or directory\n";
    return kExitUsage;
  }
  const std::vector<std::string> files = problem_files(a.target);
  if (files.empty()) {
    std::cerr << "ucutlass optimize: " << a.target << ": no problem here (a KernelBench problem .py, an op-graph .json, or a folder of them)\n";
    return kExitFailure;
  }
  nlohmann::json baselines;
  if (!a.baselines_file.empty()) {
    std::ifstream in(a.baselines_file);
    baselines = in ? nlohmann::json::parse(in, nullptr, false) : nlohmann::json();
    if (!baselines.is_object()) {
      std::cerr << "ucutlass optimize: --baselines " << a.baselines_file
                << ": not a KernelBench baseline JSON (an object of level keys, as `python3 -m ucutlass_harness baselines` writes)\n";
      return kExitUsage;
    }
  }
  const fs::path out = a.out;
  const std::string store_path = a.store.empty() ? (out / "campaign.sqlite").string() : a.store;
  fs::create_directories(fs::path(store_path).parent_path().empty() ? "." : fs::path(store_path).parent_path());
  auto store = store::RunStore::open(store_path, &err);
  if (!store) {
    std::cerr << "ucutlass optimize: " << err << "\n";
    return kExitFailure;
  }
  if (const size_t forgotten = store->forget_harness_failures())
    std::cerr << "store: " << forgotten
              << " attempt(s) the harness failed before the candidate ran (phase setup) are forgotten and tried again\n";
  size_t regauged = 0;
  for (const store::AttemptRow& r : store->attempts())
    if (gamed_only_by_older_checks(r.verdict, r.signals, r.result_json) && store->forget_attempt(r.id)) ++regauged;
  if (regauged > 0)
    std::cerr << "store: " << regauged << " attempt(s) flagged gamed by the result-reuse or timed-audit check at the bare "
                 "profile atol (correctness rules < 3) are forgotten and tried again\n";
  store->set_option("tolerance", a.tolerance);
  store->set_option("epsilon", std::to_string(a.policy.epsilon));
  store->set_option("window", std::to_string(a.policy.window));
  // Attempts recorded before the harness reported start->mid (docs/formats.md) were judged against
  // PyTorch times taken start->end: kept as they were, but their eager/compile times are not reused.
  const bool older_window_store = !store->option("timing_window") && store->attempt_count() > 0;
  if (!older_window_store) store->set_option("timing_window", "stream_only");

  build::Toolchain tc;
  const std::string toolchain_err = build::find_toolchain("", "", tc);
  std::optional<std::string> local_gpu = a.no_gpu ? std::nullopt : sol::detect_local_gpu_name();
  const bool gpu_step = !a.no_gpu && local_gpu.has_value();
  std::vector<std::string> skipped_steps;
  const std::string ext_cache = a.ext_cache.empty() ? fs::absolute(out / "torch_extensions").string() : a.ext_cache;

  // <level>_<stem>: a cached graph (tests/optimize/graphs) is already named so.
  auto problem_name = [](const std::string& file) {
    return file.ends_with(".json") ? fs::path(file).stem().string()
                                   : fs::path(file).parent_path().filename().string() + "_" + fs::path(file).stem().string();
  };
  // Every problem file traced up front, -j at a time; a resumed campaign finds the graphs it traced.
  std::vector<graph::TraceJob> trace_jobs;
  for (const std::string& file : files)
    if (!file.ends_with(".json")) trace_jobs.push_back({file, (out / problem_name(file) / "trace.json").string()});
  std::vector<graph::TraceOutcome> traces = graph::trace_problems(trace_jobs, a.jobs, 600);
  size_t next_trace = 0;

  std::vector<Problem> problems;
  int stale_baselines = 0;  // --baselines entries timed with the older start->end window
  for (const std::string& file : files) {
    Problem p;
    p.file = file;
    p.name = problem_name(file);
    p.dir = out / p.name;
    std::cerr << "[" << problems.size() + 1 << "] " << file << ": ";
    bool ok = false;
    if (file.ends_with(".json")) {
      ok = graph::load_op_graph_file(file, &p.graph, &err);
    } else {
      graph::TraceOutcome& t = traces[next_trace++];
      ok = t.ok;
      p.graph = std::move(t.graph);
      err = t.err;
      if (t.from_cache) std::cerr << "(traced before) ";
    }
    p.problem_py = file.ends_with(".json") ? problem_of_graph(file, p.graph.problem_file) : file;
    if (!baselines.is_null()) {
      const BaselineTimes b = baseline_times(baselines, p.problem_py);
      // A stale time still serves the predictions; the GPU step measures PyTorch again instead.
      if (b.current || !gpu_step) {
        p.eager_ms = b.eager_ms;
        p.compile_ms = b.compile_ms;
      } else if (b.eager_ms > 0 || b.compile_ms > 0) {
        ++stale_baselines;
      }
    }
    if (!ok) {
      p.skipped = "trace failed: " + err;
    } else {
      sol::SolOptions so;
      so.tolerance = *tol;
      sol::SolReport sol = sol::build_sol_report(p.graph, gpu, so);
      p.sol_ms = sol.floor_s() * 1e3;
      p.sched_sol_ms = sol.fused.time * 1e3;
      // After the SOL bound (the fused attention's): an attention-only problem's GEMMs become kernels.
      if (a.spell_out_attention) graph::decompose_attention(p.graph);
      // Attention kernels where the tolerance allows them, GEMMs and convolutions, or, without those, the
      // softmaxes, norms and row reductions (map::match_problem).
      p.matches = map::match_problem(p.graph, search::fused_attention_allowed(*tol));
      // A collapsed linear + sum runs the reduced problem, so the scheduler judges it against the reduced
      // floor, not the full GEMM's bound.
      if (p.matches.collapsed_sums > 0) p.sched_sol_ms = p.sol_ms;
      if (p.matches.gemms.empty())
        p.skipped = "no GEMM, convolution, softmax, norm or row reduction to map; no custom kernel, so no solution";
    }
    if (p.skipped.empty()) {
      p.candidates = search::candidate_lists(p.graph, *tol, gpu.profile, p.matches);
      p.unmapped_s = search::unmapped_ops_seconds(p.graph, p.matches.gemms, gpu.profile);
      if (p.matches.gemms.empty()) {
        p.skipped = "no kernel can be emitted:";
        for (const std::string& n : p.matches.notes) p.skipped += " " + n + ";";
        p.skipped.pop_back();
      }
      for (const auto& c : p.candidates)
        if (c.empty()) p.skipped = "no legal configuration";
      p.measured.resize(p.candidates.size());
    }
    if (p.skipped.empty() && !fs::is_regular_file(p.problem_py))
      p.skipped = "the problem file " + (p.problem_py.empty() ? std::string("(none named in the graph)") : "'" + p.problem_py + "'") +
                  " the graph was traced from is not found (relative paths are tried from the working directory and from each "
                  "folder above the graph file); the solution copies its Model class";
    if (p.skipped.empty()) {
      p.source = read_text(p.problem_py);
      solution::SolutionFiles s =
          solution::make_solution(p.source, p.graph, p.matches.gemms, best_honest_configs(p), tc.cutlass_dir);
      if (!s.error.empty()) {
        p.skipped = "solution writer: " + s.error;
      } else {
        write_text(p.dir / "modelnew.py", s.modelnew);
        write_text(p.dir / "kernel.dsl", s.dsl);
        write_text(p.dir / "report.txt", report_text(p, s));
        p.unmeasured_hash = s.hash;
        std::cerr << p.matches.gemms.size() << " kernel(s), SOL " << p.sol_ms << " ms, solution " << (p.dir / "modelnew.py").string()
                  << "\n";
        // Before a GPU step the attempts build themselves (torch extensions, in parallel batches);
        // without one, nvcc through the kernel cache shows the program compiles.
        if (!a.no_compile && !a.plan && toolchain_err.empty() && !gpu_step) {
          write_text(p.dir / "kernel.dsl", s.dsl);
          build::BuildOptions bo;
          bo.toolchain = tc;
          bo.cache_dir = build::default_cache_dir();
          bo.jobs = a.jobs;
          for (const build::BuildResult& r : build::build_programs({{(p.dir / "kernel.dsl").string()}}, bo))
            std::cerr << "    build " << (r.ok ? "ok" : "FAILED at " + r.stage) << (r.cached ? " (cached)" : "") << "\n";
        }
      }
    }
    if (!p.skipped.empty()) std::cerr << "skipped: " << p.skipped << "\n";
    store->upsert_problem({p.name, file, p.sol_ms, p.eager_ms, p.compile_ms, p.skipped.empty() ? "open" : "skipped:" + p.skipped});
    problems.push_back(std::move(p));
  }
  if (!toolchain_err.empty() && !a.no_compile) skipped_steps.push_back("compilation: " + toolchain_err);
  if (stale_baselines > 0)
    std::cerr << "--baselines " << a.baselines_file << ": " << stale_baselines
              << " problem(s) timed before the harness's start->mid window (no timing_window); PyTorch is timed "
                 "again with their first batch\n";
  if (older_window_store && gpu_step)
    std::cerr << store_path << ": attempts recorded before the start->mid window; their PyTorch times are not "
                 "reused (measured again where no current baseline is given)\n";

  // The GPU step: attempts under the budget scheduler (with --plan, its first round only, printed).
  nlohmann::json plan = nlohmann::json::array();  // --plan: the round's picks, most expected gain first
  nlohmann::json plan_remeasures = nlohmann::json::array();  // --plan: the round's re-measurements
  nlohmann::json plan_left;  // --plan: the attempts the stop rules leave the campaign (report::remaining_attempts)
  if (!gpu_step && !a.plan) {
    skipped_steps.push_back(a.no_gpu ? "GPU evaluation: --no-gpu given" : "GPU evaluation: no GPU on this machine (nvidia-smi found none)");
  } else {
    sched::Policy policy = a.policy;
    std::map<std::string, std::string> unrecorded = evaluation_result_files(out / "evals");
    std::vector<ProblemPlace> places;
    for (const Problem& p : problems)
      if (p.skipped.empty()) places.push_back({p.name, p.dir, p.eager_ms, p.compile_ms});
    const int adopted = a.plan ? 0 : record_unrecorded_evaluations(unrecorded, places, *store);
    if (adopted > 0)
      std::cerr << "resuming: " << adopted << " evaluation(s) a killed run finished but never stored, recorded now\n";
    std::vector<sched::ProblemState> states(problems.size());
    int resumed = 0;  // attempts an earlier run recorded
    int stale_bests = 0;  // problems whose recorded best today's code writes differently
    for (size_t i = 0; i < problems.size(); ++i) {
      states[i].name = problems[i].name;
      states[i].sol_ms = problems[i].sched_sol_ms;
      states[i].exhausted = !problems[i].skipped.empty();
      states[i].eager_ms = problems[i].eager_ms;
      const std::vector<store::AttemptRow> recorded = store->attempts(problems[i].name);
      // A mapping with no correct recorded attempt (a kernel kind or space added since): the window does
      // not stop it before one of its attempts is correct (sched::ProblemState::new_mapping).
      const std::string mapping = map::mapping_signature(problems[i].matches.gemms);
      states[i].new_mapping = !recorded.empty() && std::none_of(recorded.begin(), recorded.end(), [&](const store::AttemptRow& r) {
        return r.verdict == "ok" && map::mapping_signature(r.dsl) == mapping;
      });
      // A program that failed its re-measurement is no verified result for the scheduler either, nor one
      // its tolerance miss discredits (store/discredited.h).
      const store::Discredited discredited = store::discredited_programs(*store, problems[i].name);
      const std::set<std::string>& failed = discredited.programs;
      // Nor is a program whose config ran again later as today's program (store/superseded.h): its time
      // is no solution's, and a best the written solution cannot reach closed windows it should not. So
      // the scheduler counts as verified exactly the attempts that can stand for the written solution.
      const std::vector<bool> stands = report::standing_attempts(recorded, failed);
      for (size_t k = 0; k < recorded.size(); ++k) {
        const store::AttemptRow& r = recorded[k];
        ++resumed;
        if (store::reference_disagrees_with_itself(r.signals)) states[i].exhausted = true;
        if (!older_window_store && states[i].eager_ms <= 0 && r.eager_ms > 0) states[i].eager_ms = r.eager_ms;
        if (!older_window_store && problems[i].compile_ms <= 0 && r.compile_ms > 0) problems[i].compile_ms = r.compile_ms;
        sched::record_attempt(states[i], stands[k] ? std::optional<double>(r.time_ms) : std::nullopt);
      }
      if (problems[i].skipped.empty()) {
        const std::vector<RecordedPick> picks = recorded_picks(problems[i], recorded);
        fold_recorded_attempts(problems[i], recorded, picks, discredited);
        states[i].stale_best = adopt_recorded_best(problems[i], recorded, picks, tc.cutlass_dir, failed);
        if (states[i].stale_best) ++stale_bests;
        states[i].remeasured_not_faster = written_remeasured_not_faster(*store, problems[i]);
        if (!states[i].stale_best) {
          problems[i].lead = untried_lead_pick(problems[i], recorded, picks);
          if (!problems[i].lead) problems[i].lead = shorter_chain_pick(problems[i], recorded, picks);
          states[i].untried_lead = problems[i].lead.has_value();
        }
      }
    }
    int used = 0;
    const auto gpu_start = std::chrono::steady_clock::now();
    // Seconds of --wall-budget still left (the budget counts from here).
    auto wall_left_s = [&] {
      return a.wall_budget_s - std::chrono::duration<double>(std::chrono::steady_clock::now() - gpu_start).count();
    };
    // Suite mode on a terminal: the per-problem block redrawn in place after
    // every attempt; otherwise the per-attempt log line carries the ETA.
    const bool live = problems.size() > 1 && ::isatty(STDERR_FILENO);
    double attempt_wall_s = 0;
    size_t drawn = 0, name_width = 0;
    for (const Problem& p : problems) name_width = std::max(name_width, p.name.size());
    auto eta = [&] {
      return report::eta_line(used ? attempt_wall_s / used : 0, report::remaining_attempts(states, policy, used, true),
                              report::remaining_attempts(states, policy, used));
    };
    auto show = [&](int running) {
      std::vector<std::string> lines;
      for (size_t k = 0; k < problems.size(); ++k) {
        const sched::StopReason why = sched::stop_reason(states[k], policy);
        const std::string status = !problems[k].skipped.empty() ? "skipped"
                                   : static_cast<int>(k) == running ? "running"
                                   : why != sched::StopReason::none ? "stopped:" + sched::stop_reason_name(why)
                                   : states[k].exhausted ? "exhausted"
                                                         : "open";
        lines.push_back(report::progress_line(states[k], status, policy.per_problem_budget, name_width));
      }
      lines.push_back(eta());
      std::cerr << report::redraw(lines, drawn) << std::flush;
      drawn = lines.size();
    };
    // One pending attempt: a problem's candidate pick written as a solution file.
    struct Pending {
      size_t problem = 0;
      std::vector<size_t> pick;
      std::vector<map::KernelConfig> configs;
      solution::SolutionFiles files;
      fs::path path;
      nlohmann::json recovered;  // the result of an evaluation a killed run finished but never recorded
    };
    auto attempt_meta = [&](const Problem& p, const Pending& q) {
      std::vector<std::string> kernels;
      for (const auto& c : q.configs) kernels.push_back(c.summary());
      return AttemptMeta{p.name, q.files.hash, q.files.dsl, store::config_text(kernels), pick_estimate_ms(p, q.pick)};
    };
    // Evaluations finished by a run that was killed before it recorded them (exec/unrecorded_evaluations.h),
    // keyed by the solution file (two problems can share a program hash). Each is recorded, not repeated,
    // when the scheduler gets to its candidate again (the ranking is deterministic, so it does), or
    // already above, from its meta file, when the store has not seen it.
    if (resumed > 0)
      std::cerr << "resuming: " << resumed << " attempt(s) already in " << store_path << " (never repeated)\n";
    if (stale_bests > 0)
      std::cerr << "resuming: " << stale_bests << " problem(s) whose best recorded program today's code writes differently; "
                   "each is measured again first\n";
    // Up to `room` new attempts of problem i; candidates the store already has
    // are folded in without a GPU. Empty when the problem's lists are spent.
    // A pick that needs no GPU: its solution cannot be written (counted as seen), or an earlier run
    // recorded it (never repeated, but its result steers refinement). Folded into p.measured.
    auto settled = [&](Problem& p, const std::vector<size_t>& pick, const solution::SolutionFiles& sf) {
      if (!sf.error.empty()) {
        record_measured(p, pick, std::nullopt);
        return true;
      }
      if (!store->has_attempt(p.name, sf.hash)) return false;
      for (const store::AttemptRow& r : store->attempts(p.name))
        if (r.hash == sf.hash) record_stored(p, pick, r);
      return true;
    };
    // The ranking model's expectation of problem i's next new attempt, for the scheduler
    // (search/next_expectation.h). Picks the walk proposes that need no GPU (settled) are folded in on
    // the way, as gather would.
    auto expect = [&](size_t i, sched::ProblemState& s) {
      Problem& p = problems[i];
      s.next_expected_ms.reset();
      s.next_speculative = false;
      if (p.lead) {  // the lead goes first (gather): its expectation is the next attempt's
        if (auto e = search::expect_next(p.candidates, p.measured, *p.lead, p.unmapped_s * 1e3)) {
          s.next_expected_ms = e->ms;
          s.next_speculative = e->speculative;
        }
        return;
      }
      for (;;) {
        const std::vector<std::vector<size_t>> picks = next_attempts(p, 1);
        if (picks.empty()) return;
        const solution::SolutionFiles sf =
            solution::make_solution(p.source, p.graph, p.matches.gemms, configs_of(p, picks.front()), tc.cutlass_dir);
        if (settled(p, picks.front(), sf)) continue;
        if (auto e = search::expect_next(p.candidates, p.measured, picks.front(), p.unmapped_s * 1e3)) {
          s.next_expected_ms = e->ms;
          s.next_speculative = e->speculative;
        }
        return;
      }
    };
    // The result of attempt file `file` if a killed run finished its evaluation but never recorded it.
    auto recovered_result = [&](const fs::path& file) {
      nlohmann::json recovered;
      if (auto it = unrecorded.find(fs::absolute(file).lexically_normal().string()); it != unrecorded.end()) {
        recovered = read_result_file(it->second);  // missing, or cut short by the kill: evaluated again
        if (!recovered.is_object() || !recovered.contains("verdict")) recovered = nullptr;
      }
      return recovered;
    };
    auto gather = [&](size_t i, int room) {
      Problem& p = problems[i];
      std::vector<Pending> mine;
      // A stale best (adopt_recorded_best) or an untried lead (untried_lead_pick), ahead of the walk.
      for (std::optional<std::vector<size_t>>* first : {&p.remeasure, &p.lead}) {
        if (!*first || room <= 0) continue;
        std::vector<map::KernelConfig> configs = configs_of(p, **first);
        solution::SolutionFiles sf = solution::make_solution(p.source, p.graph, p.matches.gemms, configs, tc.cutlass_dir);
        if (!settled(p, **first, sf)) {
          const fs::path file = p.dir / ("attempt_" + sf.hash + ".py");
          mine.push_back({i, **first, std::move(configs), std::move(sf), file, recovered_result(file)});
          --room;
        }
        first->reset();
      }
      states[i].stale_best = false;
      states[i].untried_lead = false;
      const size_t ahead = mine.size();
      while (room > 0 && mine.size() == ahead) {
        const std::vector<std::vector<size_t>> picks = next_attempts(p, static_cast<size_t>(room));
        if (picks.empty()) break;
        for (const std::vector<size_t>& pick : picks) {
          std::vector<map::KernelConfig> configs = configs_of(p, pick);
          solution::SolutionFiles sf = solution::make_solution(p.source, p.graph, p.matches.gemms, configs, tc.cutlass_dir);
          if (settled(p, pick, sf)) continue;
          bool twice = false;
          for (const Pending& q : mine) twice |= q.files.hash == sf.hash;
          if (twice) {  // two picks, one program: measure it once, count the other as seen
            record_measured(p, pick, std::nullopt);
            continue;
          }
          const fs::path file = p.dir / ("attempt_" + sf.hash + ".py");
          mine.push_back({i, pick, std::move(configs), std::move(sf), file, recovered_result(file)});
        }
      }
      return mine;
    };
    // This round's re-measurements of written solutions (sched/remeasure_queue.h), each program once a run.
    struct Remeasure {
      size_t problem;
      std::string hash;
      double attempt_ms;  // what it measured as an attempt
    };
    auto remeasures_due = [&](size_t cap_builds) {
      std::vector<Remeasure> due;
      if (a.no_remeasure) return due;
      std::vector<sched::WrittenSolution> written;
      for (const Problem& p : problems) {
        const bool has = p.skipped.empty() && !p.written_hash.empty() && p.written_ms;
        // Due until the store has one taken on an idle host, of this very file: the program hash names
        // the DSL, and the host code around it may have changed since (store::RunStore::has_idle_confirmation).
        written.push_back({has, has && (p.remeasure_queued_hash == p.written_hash ||
                                        store->has_idle_confirmation(p.name, p.written_hash, sha256_hex(p.written_modelnew))),
                           p.written_built_here});
      }
      for (size_t i : sched::remeasures_due(written, cap_builds)) due.push_back({i, problems[i].written_hash, *problems[i].written_ms});
      return due;
    };
    // How long this run's rounds take to give results (sched/round_start.h); GPUs named by --devices
    // ("all" counts as one: the need is then the larger, never a round that cannot pay).
    sched::RoundPace pace;
    std::vector<double> evaluation_s;
    const int gpus = a.devices.empty() || a.devices == "all" ? 1 : 1 + static_cast<int>(std::count(a.devices.begin(), a.devices.end(), ','));
    for (int round = 1;; ++round) {
      if (a.wall_budget_s > 0 && wall_left_s() < 0) {
        skipped_steps.push_back("further attempts: --wall-budget spent");
        break;
      }
      // This round's problems: the scheduler's pick, then its next picks as if the
      // earlier ones were taken (each problem once per round), up to
      // --batch-problems, every problem with up to --batch attempts. All of them
      // build in parallel and are evaluated in one harness batch.
      std::vector<sched::ProblemState> view = states;
      int open = 0;
      for (size_t i = 0; i < problems.size(); ++i)
        if (problems[i].skipped.empty() && sched::stop_reason(view[i], policy) == sched::StopReason::none) {
          expect(i, view[i]);
          ++open;
        }
      // Few problems open: each takes a share of the build slots (sched/round_fill.h).
      const int batch_now = sched::round_batch(a.batch, a.jobs, open, !a.no_round_fill);
      std::vector<Pending> batch;
      bool picked_any = false;
      for (int taken = 0; taken < a.batch_problems;) {
        const int planned = static_cast<int>(batch.size());
        const int i = sched::pick_next(view, policy, used + planned);
        if (i < 0) break;
        picked_any = true;
        const nlohmann::json pick = {{"problem", problems[i].name}, {"expected_gain", sched::expected_gain(view[i])},
                                     {"best_ms", view[i].best_ms ? nlohmann::json(*view[i].best_ms) : nlohmann::json()},
                                     {"next_expected_ms", view[i].next_expected_ms ? nlohmann::json(*view[i].next_expected_ms) : nlohmann::json()},
                                     {"next_speculative", view[i].next_speculative}, {"stale_best", view[i].stale_best},
                                     {"new_mapping", view[i].new_mapping}, {"untried_lead", view[i].untried_lead},
                                     {"configs", nlohmann::json::array()},
                                     {"estimates_ms", nlohmann::json::array()}};
        // Taken for this round. A stale best is open whatever else holds (sched::stop_reason), so its
        // mark goes too: gather measures it now, and the round's next slots go to other problems.
        view[i].exhausted = true;
        view[i].stale_best = false;
        int room = std::min({batch_now, policy.per_problem_budget - states[i].attempts, sched::window_room(states[i], policy)});
        if (policy.total_budget > 0) room = std::min(room, policy.total_budget - used - planned);
        std::vector<Pending> mine = gather(static_cast<size_t>(i), std::max(room, 1));
        if (mine.empty()) {  // its candidates are spent: no slot taken, and --plan does not list it
          states[i].exhausted = true;
          continue;
        }
        if (a.plan) plan.push_back(pick);
        for (Pending& q : mine) batch.push_back(std::move(q));
        ++taken;
      }
      if (batch.empty() && picked_any) continue;  // every pick was spent or already recorded: ask the scheduler again
      // Beside the round's attempts, up to --batch-problems adopted solutions to build again; once the
      // search is over, every one still due, in a round of their own.
      const std::vector<Remeasure> remeasures = remeasures_due(batch.empty() ? SIZE_MAX : static_cast<size_t>(a.batch_problems));
      if (batch.empty() && remeasures.empty()) break;
      if (a.plan) {
        for (const Remeasure& m : remeasures)
          plan_remeasures.push_back({{"problem", problems[m.problem].name}, {"hash", m.hash}, {"attempt_ms", m.attempt_ms},
                                     {"built_here", problems[m.problem].written_built_here}});
        for (const Pending& q : batch)
          for (nlohmann::json& pick : plan)
            if (pick["problem"] == problems[q.problem].name) {
              const AttemptMeta m = attempt_meta(problems[q.problem], q);
              pick["configs"].push_back(m.config);
              pick["estimates_ms"].push_back(m.estimate_ms);  // what the store records with the attempt
            }
        plan_left = {{"open", report::open_problems(states, policy)},
                     {"unless_improved", report::remaining_attempts(states, policy, used, true)},
                     {"at_most", report::remaining_attempts(states, policy, used)}};
        if (!g.json) std::cout << plan_text(plan) << remeasure_plan_text(plan_remeasures, a.remeasure_ms) << attempts_left_text(plan_left);
        skipped_steps.push_back("GPU evaluation: --plan given (the next round printed, nothing built or run)");
        break;
      }
      // The round planned, nothing written yet: does the wall budget left let it give results? (One whose
      // attempts were all evaluated before a kill only records them: it always goes on.)
      const int to_evaluate = static_cast<int>(remeasures.size() + std::count_if(batch.begin(), batch.end(), [](const Pending& q) {
                                                 return q.recovered.is_null();
                                               }));
      if (const std::optional<double> needs = sched::round_needs_s(pace, gpus, to_evaluate); a.wall_budget_s > 0 && needs && to_evaluate > 0) {
        const double left_s = wall_left_s();
        if (left_s < *needs) {
          std::ostringstream why;
          why << std::fixed << std::setprecision(0) << "further attempts: " << left_s
              << " s of --wall-budget left, less than this round needs to pay for itself (" << *needs
              << " s: the slowest first result so far and up to " << sched::kMinEvaluations << " evaluations)";
          skipped_steps.push_back(why.str());
          break;
        }
      }
      if (live) show(batch.empty() ? -1 : static_cast<int>(batch.front().problem));
      std::vector<BatchPair> pairs;
      for (const Pending& q : batch) {
        if (!q.recovered.is_null()) continue;
        write_text(q.path, q.files.modelnew);
        write_attempt_meta(q.path, attempt_meta(problems[q.problem], q));
        const Problem& p = problems[q.problem];
        // PyTorch's times once per problem: from --baselines, else measured with its first batch.
        pairs.push_back({p.problem_py, q.path.string(), p.sol_ms, states[q.problem].eager_ms > 0 ? "none" : "eager,compile"});
      }
      const size_t attempt_pairs = pairs.size();
      for (const Remeasure& m : remeasures) {
        Problem& p = problems[m.problem];
        // Its own file: modelnew.py may be replaced by this round's results while it is evaluated. The
        // same source builds the same extension, so a program this run built is not built again.
        const fs::path file = p.dir / ("remeasure_" + m.hash + ".py");
        write_text(file, p.written_modelnew);
        p.remeasure_queued_hash = m.hash;
        // Eager timed beside it, in the same worker on the same inputs: its speedup is a ratio of one run
        // (bench/suite_latest.py reads it), not the solution's time today over eager's on the first day.
        BatchPair pair{p.problem_py, file.string(), p.sol_ms, "eager"};
        pair.timing_min_ms = a.remeasure_ms;
        pair.after_builds = true;  // timed on an idle host: the figure a user running the solution alone sees
        pairs.push_back(std::move(pair));
      }
      BatchEvalOptions bo;
      bo.profile = a.tolerance;
      bo.prebuild_jobs = std::max(1, a.jobs);
      bo.ext_cache = ext_cache;
      bo.devices = a.devices;
      // The GPUs evaluate finished builds while the rest of the round still builds: a build is about
      // a minute of a core and an evaluation seconds of a GPU, so without it the GPUs idle through
      // every round's builds and the cores through its evaluations.
      bo.overlap_builds = true;
      bo.out_dir = (out / "evals" / ("round_" + std::to_string(round) + "_" + std::to_string(::getpid()))).string();
      bo.eval_timeout_s = 600;
      bo.timing_min_ms = a.timing_min_ms;
      if (a.wall_budget_s > 0) {
        // The wall budget also binds the round in flight: nothing starts after it, so a step that
        // stops the campaign a little later (its own timeout) finds every evaluation recorded.
        const double left = wall_left_s();
        bo.deadline_unix_s = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count() + std::max(0.0, left);
      }
      const double round_start_unix = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
      const std::vector<BatchEvalResult> evaluated = evaluate_batch(pairs, bo);
      std::optional<double> first_result_s;
      for (const BatchEvalResult& e : evaluated) {
        if (e.done_unix_s <= 0) continue;  // not run, or no result file
        first_result_s = std::min(first_result_s.value_or(e.done_unix_s - round_start_unix), e.done_unix_s - round_start_unix);
        const nlohmann::json::json_pointer worker_wall("/worker/wall_s");
        if (e.result.contains(worker_wall) && e.result[worker_wall].is_number()) evaluation_s.push_back(e.result[worker_wall].get<double>());
      }
      if (first_result_s) pace.slowest_first_result_s = std::max(pace.slowest_first_result_s.value_or(0.0), *first_result_s);
      if (!evaluation_s.empty()) pace.median_evaluation_s = report::median(evaluation_s);
      bool deadline_hit = false;
      size_t next_evaluated = 0;
      for (size_t j = 0; j < batch.size(); ++j) {
        const Pending& q = batch[j];
        const size_t i = q.problem;
        Problem& p = problems[i];
        const BatchEvalResult recovered{q.path.string(), q.recovered, 0.0};
        const BatchEvalResult& done = q.recovered.is_null() ? evaluated[next_evaluated++] : recovered;
        const nlohmann::json& result = done.result;
        if (result.value("verdict", "") == "not_run") {  // --wall-budget passed first: not an attempt
          deadline_hit = true;
          continue;
        }
        store::AttemptRow row = attempt_row(attempt_meta(p, q), result, done.wall_s);
        if (row.eager_ms <= 0) row.eager_ms = states[i].eager_ms;  // the baseline this attempt is judged against
        if (row.compile_ms <= 0) row.compile_ms = p.compile_ms;
        store->record_attempt(row);
        ++used;
        attempt_wall_s += row.wall_s;
        const bool correct = row.verdict == "ok" && row.time_ms > 0;
        record_measured(p, q.pick, correct ? std::optional(row.time_ms) : std::nullopt, row.verdict == "incorrect");
        if (states[i].eager_ms <= 0 && row.eager_ms > 0) states[i].eager_ms = row.eager_ms;
        if (p.compile_ms <= 0 && row.compile_ms > 0) p.compile_ms = row.compile_ms;
        sched::record_attempt(states[i], correct ? std::optional<double>(row.time_ms) : std::nullopt);
        if (correct) states[i].new_mapping = false;  // today's mapping has a correct attempt now
        if (result.contains("signals") && store::reference_disagrees_with_itself(result["signals"]) && !states[i].exhausted) {
          // Two runs of the problem's own model disagree (active dropout, random ops): no candidate
          // can ever be verified, so its budget goes to the others.
          states[i].exhausted = true;
          std::cerr << p.name << ": the reference is nondeterministic; no solution can be verified, no further attempts\n";
        }
        if (live)
          show(-1);
        else
          std::cerr << p.name << " attempt " << row.seq << ": " << row.verdict << " " << row.time_ms << " ms (" << row.config << ")"
                    << (q.recovered.is_null() ? "" : ", evaluated before a kill, recorded now") << "; " << eta() << "\n";
        if (correct && (!p.written_ms || row.time_ms < *p.written_ms)) {
          write_solution(p, q.files, row.time_ms, true);
          states[i].remeasured_not_faster = false;  // a new program, not re-measured yet
        }
      }
      for (size_t j = 0; j < remeasures.size(); ++j) {
        const Remeasure& m = remeasures[j];
        const BatchEvalResult& done = evaluated[attempt_pairs + j];
        if (done.result.value("verdict", "") == "not_run") {
          deadline_hit = true;
          continue;
        }
        store::ConfirmationRow c = confirmation_row(problems[m.problem].name, m.hash, a.remeasure_ms, done);
        // One taken beside builds is replaced by this idle-host one whatever it says; the store keeps the
        // old figures in the row's result JSON ("replaces").
        const bool recorded = store->has_confirmation(problems[m.problem].name, m.hash) ? store->replace_confirmation(c)
                                                                                         : store->record_confirmation(c);
        if (!recorded)
          std::cerr << problems[m.problem].name << ": re-measurement not recorded: " << store->last_error() << "\n";
        if (!live)
          std::cerr << problems[m.problem].name << " re-measured (program " << m.hash << ", " << a.remeasure_ms << " ms window): "
                    << c.verdict << " " << c.time_ms << " ms; " << m.attempt_ms << " ms as an attempt\n";
        if (c.verdict != "ok") {
          // The failure discredits the program, and a tolerance miss its path's passes on other inputs
          // (store/discredited.h): none is a correct measurement for the refinement any more, and a
          // written solution among them is taken back.
          Problem& p = problems[m.problem];
          const store::Discredited d = store::discredited_programs(*store, p.name);
          const std::vector<store::AttemptRow> rows = store->attempts(p.name);
          const std::vector<RecordedPick> picks = recorded_picks(p, rows);
          for (size_t k = 0; k < rows.size(); ++k)
            if (picks[k] && d.programs.count(rows[k].hash)) discredit_measured(p, *picks[k], d.inaccurate.count(rows[k].hash) > 0);
          if (d.programs.count(p.written_hash)) {
            const std::string note = demote_written(p, rows, picks, d.programs, tc.cutlass_dir);
            states[m.problem].stale_best = p.remeasure.has_value();
            states[m.problem].best_ms = p.written_ms;  // the scheduler's best is the written one's, or none
            std::cerr << p.name << ": program " << m.hash << " failed its re-measurement (" << c.verdict << "); " << note << "\n";
          }
        }
        // Whatever is written now (this program, or the one a failure put in its place), judged by its own
        // re-measurement where it has one.
        states[m.problem].remeasured_not_faster = written_remeasured_not_faster(*store, problems[m.problem]);
      }
      if (deadline_hit) {
        skipped_steps.push_back("further attempts: --wall-budget spent (the last round's unstarted ones are left for a resume)");
        break;
      }
    }
    for (size_t i = 0; i < problems.size(); ++i) {
      if (!problems[i].skipped.empty()) continue;
      store->upsert_problem({problems[i].name, problems[i].file, problems[i].sol_ms, states[i].eager_ms, problems[i].compile_ms,
                             "stopped:" + sched::stop_reason_name(sched::stop_reason(states[i], policy))});
      // The problem's rows and re-measurements read once, for the withdrawal and the report alike.
      const std::vector<store::AttemptRow> rows = store->attempts(problems[i].name);
      const std::vector<store::ConfirmationRow> confirmations = store->confirmations(problems[i].name);
      const std::set<std::string> discredited = store::discredited_programs(rows, confirmations).programs;
      const std::string withdrawn = withdraw_failed_pick(problems[i], rows, discredited);
      if (!withdrawn.empty()) std::cerr << problems[i].name << ": no verified program, and " << withdrawn << "\n";
      // report.txt: the predictions, then what the GPU measured (replaced on every run).
      const fs::path report = problems[i].dir / "report.txt";
      if (!rows.empty() && fs::exists(report))
        write_text(report, report::with_measured_section(read_text(report.string()),
                                                         report::measured_section(rows, problems[i].sol_ms, confirmations,
                                                                                  report::standing_attempts(rows, discredited), withdrawn)));
    }
  }

  int solved = 0;
  // A problem whose unmeasured pick the harness failed has none written (withdraw_failed_pick).
  for (const Problem& p : problems) solved += p.skipped.empty() && fs::exists(p.dir / "modelnew.py");
  nlohmann::json summary = {{"problems", problems.size()}, {"solutions_written", solved}, {"store", store_path},
                            {"out", out.string()}, {"skipped_steps", skipped_steps}};
  const report::SuiteSummary suite = report::summarize(report::outcomes_from_store(*store));
  summary["suite"] = report::summary_json(suite);
  if (a.plan) {
    summary["plan"] = plan;
    summary["plan_remeasures"] = plan_remeasures;
    summary["plan_attempts_left"] = plan_left;
  }
  // Before (or without) a GPU run: the ranking model's speedups over eager for the problems with a
  // baseline, a problem with no solution counted as 1x, as the measured suite geomean counts it.
  double log_sum = 0;
  int with_baseline = 0, below = 0;
  for (const Problem& p : problems) {
    if (p.eager_ms <= 0) continue;
    ++with_baseline;
    if (!p.skipped.empty()) continue;
    const double x = p.eager_ms / predicted_ms(p);
    log_sum += std::log(x);
    below += x < 1;
  }
  if (with_baseline > 0)
    summary["predicted"] = {{"suite_geomean_vs_eager", std::exp(log_sum / with_baseline)},
                            {"problems_with_baseline", with_baseline}, {"below_1x", below}};
  if (g.json) {
    std::cout << summary.dump(2) << "\n";
  } else {
    std::cout << problems.size() << " problem(s), " << solved << " solution(s) written under " << out.string() << "; store "
              << store_path << "\n";
    for (const std::string& s : skipped_steps) std::cout << "skipped " << s << "\n";
    if (summary.contains("predicted"))
      std::cout << "predicted by the ranking model (not measured): suite geomean vs eager "
                << summary["predicted"]["suite_geomean_vs_eager"].get<double>() << "x over " << with_baseline
                << " problem(s) with a baseline (no solution = 1x); " << below << " predicted below 1x\n";
    std::cout << report::summary_text(suite);
  }
  return kExitOk;
}

}  // namespace

UCUTLASS_COMMAND(optimize, "Built-in optimizer: map GEMMs to DSL, rank legal configs, write and evaluate solutions",
                 [](CLI::App& app, const GlobalOptions& g) -> Action {
                   auto a = std::make_shared<OptimizeArgs>();
                   app.add_option("PROBLEM", a->target, "A problem file, an op-graph JSON, or a directory of problems")->required();
                   app.add_option("-o,--out", a->out, "Output folder (default optimize_out)");
                   app.add_option("--store", a->store, "Run store (SQLite), default OUT/campaign.sqlite");
                   app.add_option("--profile", a->tolerance, "Tolerance profile: kernelbench (default) or kernelbench-v0.1");
                   app.add_option("--gpu", a->gpu, "GPU profile name for SOL and ranking (default: local GPU, else H200)");
                   add_policy_options(app, a->policy);
                   app.add_option("--wall-budget", a->wall_budget_s,
                                  "Seconds of GPU-step wall time before no new attempt starts (default 0: no cap)")
                       ->check(CLI::Range(0.0, 1e7));
                   app.add_option("--timing-min-ms", a->timing_min_ms,
                                  "Each attempt's timed trials last at least this long (default 300; the harness alone: 1000)")
                       ->check(CLI::Range(0.0, 60000.0));
                   app.add_option("--remeasure-ms", a->remeasure_ms,
                                  "Each written solution is evaluated once more, timed at least this long, and recorded beside "
                                  "the attempts (default 1000, the harness's own window)")
                       ->check(CLI::Range(0.0, 60000.0));
                   app.add_flag("--no-remeasure", a->no_remeasure, "Do not evaluate written solutions again");
                   app.add_flag("--no-gpu", a->no_gpu, "Stop before the GPU step");
                   app.add_flag("--no-compile", a->no_compile, "Do not run nvcc on the best-ranked program");
                   app.add_flag("--plan", a->plan,
                                "Print the scheduler's next round from the store (problems, expected gains, configs) and stop: "
                                "nothing built or evaluated");
                   app.add_flag("--spell-out-attention", a->spell_out_attention,
                                "Map a plain scaled_dot_product_attention's two GEMMs also where the problem has other GEMMs "
                                "(default: only where it has none)");
                   app.add_option("-j,--jobs", a->jobs, "Parallel builds (nvcc, and the attempts' extensions before each batch)")
                       ->check(CLI::Range(1, 1024));
                   app.add_option("--batch", a->batch,
                                  "Attempts of one problem per round (default 4; more while fewer problems are open than "
                                  "--jobs can build at that many each, within each one's window)")->check(CLI::Range(1, 64));
                   app.add_flag("--no-round-fill", a->no_round_fill,
                                "Keep --batch attempts per problem even when few problems are open");
                   app.add_option("--batch-problems", a->batch_problems,
                                  "Problems per round, picked by the scheduler; the round's attempts build in parallel and are "
                                  "evaluated in one harness batch (default 4)")
                       ->check(CLI::Range(1, 256));
                   app.add_option("--baselines", a->baselines_file,
                                  "KernelBench baseline JSON with eager and torch.compile times (python3 -m ucutlass_harness baselines); "
                                  "default: measured with each problem's first batch");
                   app.add_option("--ext-cache", a->ext_cache, "TORCH_EXTENSIONS_DIR for the attempts (default OUT/torch_extensions)");
                   app.add_option("--devices", a->devices,
                                  "GPUs that evaluate a round's attempts at once, one worker each: a comma list or 'all' "
                                  "(default: GPU 0 alone)");
                   return [a, &g] { return run_optimize(*a, g); };
                 });

}  // namespace ucutlass::cli
