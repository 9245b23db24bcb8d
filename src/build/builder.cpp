#include "build/builder.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "build/kernel_cache.h"
#include "codegen/emit.h"
#include "compiler/frontend.h"
#include "exec/subprocess.h"
#include "support/phase_timer.h"

namespace fs = std::filesystem;

namespace ucutlass::build {

namespace {

bool write_file(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
  return static_cast<bool>(out);
}

std::string tail(const std::string& s, size_t n = 6000) { return s.size() <= n ? s : "...\n" + s.substr(s.size() - n); }

// nvcc links -lcuda against the driver stub when no driver is installed.
std::string stub_dir(const Toolchain& tc) {
  fs::path nvcc = tc.nvcc;
  if (!nvcc.has_parent_path()) return "";
  for (const char* rel : {"../lib64/stubs", "../targets/x86_64-linux/lib/stubs"}) {
    fs::path p = nvcc.parent_path() / rel;
    if (fs::exists(p / "libcuda.so")) return fs::weakly_canonical(p).string();
  }
  return "";
}

BuildResult build_one(const BuildRequest& req, const BuildOptions& opt) {
  auto start = std::chrono::steady_clock::now();
  BuildResult r;
  r.file = req.path;
  auto finish = [&](BuildResult& res) -> BuildResult& {
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return res;
  };
  FileFrontendResult fr = run_frontend_on_file(req.path);
  if (!fr.io_error.empty()) {
    r.stage = "read";
    r.log = fr.io_error;
    return finish(r);
  }
  if (!fr.result.ok) {
    r.stage = "check";
    r.log = fr.result.diags->render();
    return finish(r);
  }
  r.hash = fr.result.hash;
  std::vector<codegen::EmittedFile> files;
  try {
    PhaseTimer t("emit");
    files = codegen::emit_program(fr.result.program, r.hash);
  } catch (const std::exception& e) {
    r.stage = "emit";
    r.log = std::string("internal error: the emitter rejected a validated program: ") + e.what();
    return finish(r);
  }
  const codegen::EmittedFile* capi = nullptr;
  const codegen::EmittedFile* manifest = nullptr;
  for (const codegen::EmittedFile& f : files) {
    if (f.name.ends_with("_capi.cu")) capi = &f;
    if (f.name.ends_with(".json")) manifest = &f;
  }
  std::vector<std::string> probe = nvcc_command(opt.toolchain, fr.result.program, "x.cu", "x.so");
  std::string key = cache_key(files, probe, opt.toolchain.nvcc_version);
  CacheEntry entry = cache_entry(opt.cache_dir, key, r.hash);
  r.library = entry.library;
  r.manifest = entry.dir + "/" + (manifest ? manifest->name : "");
  if (fs::exists(entry.library)) {
    r.cached = true;
  } else {
    fs::path tmp = entry.dir + ".tmp." + std::to_string(getpid()) + "." +
                   std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
    std::error_code ec;
    fs::remove_all(tmp, ec);
    if (std::string err = codegen::write_emitted_files(files, tmp.string()); !err.empty()) {
      r.stage = "emit";
      r.log = err;
      fs::remove_all(tmp, ec);
      return finish(r);
    }
    std::string lib_name = fs::path(entry.library).filename().string();
    std::vector<std::string> cmd =
        nvcc_command(opt.toolchain, fr.result.program, (tmp / capi->name).string(), (tmp / lib_name).string());
    if (std::string stubs = stub_dir(opt.toolchain); !stubs.empty()) cmd.push_back("-L" + stubs);
    ProcessOptions po;
    po.timeout_s = opt.nvcc_timeout_s;
    ProcessResult pr;
    {
      PhaseTimer t("nvcc");
      pr = run_process(cmd, po);
    }
    std::string cmdline;
    for (const std::string& a : cmd) cmdline += (cmdline.empty() ? "" : " ") + a;
    write_file(tmp / "build.log", cmdline + "\n" + pr.out + pr.err);
    if (!pr.ok()) {
      r.stage = "nvcc";
      r.log = "nvcc " + pr.describe() + "\n" + cmdline + "\n" + tail(pr.out + pr.err);
      fs::remove_all(tmp, ec);
      return finish(r);
    }
    fs::create_directories(fs::path(entry.dir).parent_path(), ec);
    fs::rename(tmp, entry.dir, ec);
    if (ec) fs::remove_all(tmp, ec);  // another builder won the race with the same bytes
  }
  if (!opt.out_dir.empty()) {
    std::error_code ec;
    if (std::string err = codegen::write_emitted_files(files, opt.out_dir); !err.empty()) {
      r.stage = "done";
      r.log = err;
      return finish(r);
    }
    fs::path lib_out = fs::path(opt.out_dir) / fs::path(entry.library).filename();
    fs::copy_file(entry.library, lib_out, fs::copy_options::overwrite_existing, ec);
    if (ec) {
      r.stage = "done";
      r.log = "could not copy the library to " + opt.out_dir + ": " + ec.message();
      return finish(r);
    }
    r.library = fs::absolute(lib_out).string();
    r.manifest = fs::absolute(fs::path(opt.out_dir) / (manifest ? manifest->name : "")).string();
  }
  r.ok = true;
  r.stage = "done";
  return finish(r);
}

}  // namespace

std::vector<BuildResult> build_programs(const std::vector<BuildRequest>& requests, const BuildOptions& options) {
  std::vector<BuildResult> results(requests.size());
  std::atomic<size_t> next{0};
  int workers = std::max(1, std::min<int>(options.jobs, static_cast<int>(requests.size())));
  std::vector<std::thread> pool;
  for (int w = 0; w < workers; ++w)
    pool.emplace_back([&] {
      for (size_t i = next++; i < requests.size(); i = next++) results[i] = build_one(requests[i], options);
    });
  for (std::thread& t : pool) t.join();
  return results;
}

}  // namespace ucutlass::build
