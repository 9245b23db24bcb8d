#include "graph/trace_cache.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <thread>

#include <nlohmann/json.hpp>

#include "graph/graph_reader.h"
#include "graph/problem_trace.h"
#include "support/file_text.h"
#include "support/install_paths.h"
#include "support/sha256.h"

namespace ucutlass::graph {
namespace fs = std::filesystem;

namespace {

// The harness modules the tracer runs; their bytes go into every key.
std::string tracer_sources_digest() {
  static const std::string digest = [] {
    std::string all;
    const fs::path dir = fs::path(find_install_dir("python")) / "ucutlass_harness";
    for (const char* name : {"tracer.py", "problem.py", "cli.py"}) {
      std::string text;
      all += std::string(name) + ":";
      if (read_file_text(dir / name, &text)) all += std::to_string(text.size()) + ":" + text;
    }
    return sha256_hex(all);
  }();
  return digest;
}

constexpr const char* kFormat = "ucutlass-trace-cache";

bool read_cached(const TraceJob& job, const std::string& key, TraceOutcome* out) {
  std::string text;
  if (job.cache_file.empty() || key.empty() || !read_file_text(job.cache_file, &text)) return false;
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (!doc.is_object() || doc.value("format", "") != kFormat || doc.value("key", "") != key || !doc.contains("graph"))
    return false;
  std::string err;
  if (!read_op_graph(doc["graph"].dump(), job.cache_file, &out->graph, &err)) return false;  // stale schema: retrace
  out->ok = out->from_cache = true;
  return true;
}

void write_cached(const TraceJob& job, const std::string& key, const std::string& graph_text) {
  if (job.cache_file.empty() || key.empty()) return;
  nlohmann::json graph = nlohmann::json::parse(graph_text, nullptr, false);
  if (graph.is_discarded()) return;
  std::error_code ec;
  fs::create_directories(fs::path(job.cache_file).parent_path(), ec);
  // Written whole, then renamed: a campaign killed mid-write leaves the old file or none.
  write_file_atomically(job.cache_file,
                        nlohmann::json{{"format", kFormat}, {"version", 1}, {"problem", job.problem_py}, {"key", key}, {"graph", graph}}.dump() +
                            "\n");
}

}  // namespace

std::string trace_cache_key(const std::string& problem_py) {
  std::string text;
  if (!read_file_text(problem_py, &text)) return "";
  return sha256_hex(std::to_string(text.size()) + ":" + text + "|" + tracer_sources_digest());
}

std::vector<TraceOutcome> trace_problems(const std::vector<TraceJob>& jobs, int parallel, double timeout_s) {
  std::vector<TraceOutcome> out(jobs.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < jobs.size();) {
      const TraceJob& job = jobs[i];
      const std::string key = trace_cache_key(job.problem_py);
      if (read_cached(job, key, &out[i])) continue;
      std::string text;
      if (!run_tracer(job.problem_py, timeout_s, &text, &out[i].err)) continue;
      if (!read_op_graph(text, job.problem_py + " (traced)", &out[i].graph, &out[i].err)) continue;
      out[i].ok = true;
      write_cached(job, key, text);
    }
  };
  const size_t threads = std::clamp<size_t>(static_cast<size_t>(std::max(parallel, 1)), 1, std::max<size_t>(jobs.size(), 1));
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  return out;
}

}  // namespace ucutlass::graph
