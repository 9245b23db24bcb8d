#include "sol/gpu_profile.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace ucutlass::sol {

namespace {

using nlohmann::json;

bool read_ceilings(const json& v, const std::string& where, Ceilings* out, std::string* err) {
  if (!v.is_object()) {
    *err = where + ": expected an object";
    return false;
  }
  auto number = [&](const json& obj, const std::string& key, const std::string& p,
                    std::optional<double>* dst) -> bool {
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return true;
    if (!it->is_number() || it->get<double>() <= 0) {
      *err = p + "/" + key + ": expected a positive number or null, found " + it->dump();
      return false;
    }
    *dst = it->get<double>();
    return true;
  };
  if (!number(v, "dram_bytes_per_s", where, &out->dram_bytes_per_s)) return false;
  if (!number(v, "l2_bytes_per_s", where, &out->l2_bytes_per_s)) return false;
  auto flops = v.find("flops_per_s");
  if (flops == v.end()) return true;
  if (!flops->is_object()) {
    *err = where + "/flops_per_s: expected an object keyed by math path";
    return false;
  }
  for (auto it = flops->begin(); it != flops->end(); ++it) {
    std::optional<MathPath> p = parse_path(it.key());
    if (!p) {
      *err = where + "/flops_per_s/" + it.key() + ": unknown math path; legal: fp64, fp64_tensor, fp32, tf32, fp16, bf16, fp8";
      return false;
    }
    if (!number(*flops, it.key(), where + "/flops_per_s", &out->flops_per_s[static_cast<size_t>(*p)])) return false;
  }
  return true;
}

std::optional<double> path_figure(const std::optional<Ceilings>& c, MathPath p) {
  if (!c) return std::nullopt;
  return c->flops_per_s[static_cast<size_t>(p)];
}

std::optional<double> max_of(std::optional<double> a, std::optional<double> b) {
  if (a && b) return std::max(*a, *b);
  return a ? a : b;
}

// The path whose figure stands in when a GPU lacks one: 3xTF32 costs three
// TF32 GEMMs; no FP64 tensor cores means FP64 SIMT; no FP8 means the 16-bit rate.
struct Fallback {
  MathPath from, to;
  double scale;
};
constexpr Fallback kFallbacks[] = {
    {MathPath::tf32x3, MathPath::tf32, 1.0 / 3.0},
    {MathPath::fp64_tensor, MathPath::fp64, 1.0},
    {MathPath::fp8, MathPath::fp16, 1.0},
    {MathPath::bf16, MathPath::fp16, 1.0},
    {MathPath::tf32, MathPath::fp32, 1.0},
};

template <typename Figure>
Rate lookup(const GpuProfile& gpu, MathPath path, Figure figure) {
  Rate r;
  if (std::optional<double> v = figure(path)) {
    r.value = *v;
    return r;
  }
  for (const Fallback& f : kFallbacks) {
    if (f.from != path) continue;
    Rate inner = lookup(gpu, f.to, figure);
    r.value = inner.value * f.scale;
    r.note = path == MathPath::tf32x3 ? "3xtf32 priced at a third of the tf32 rate"
                                      : "no " + path_name(path) + " figure for " + gpu.name + ": priced at " +
                                            path_name(f.to);
    if (!inner.note.empty()) r.note += "; " + inner.note;
    return r;
  }
  r.note = "no " + path_name(path) + " figure for " + gpu.name;
  return r;
}

}  // namespace

std::string normalize_gpu_name(const std::string& name) {
  std::string s;
  for (char c : name)
    if (std::isalnum(static_cast<unsigned char>(c))) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s.starts_with("nvidia")) s.erase(0, 6);
  return s;
}

std::string gpu_name_slug(const std::string& name) {
  std::string s;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!s.empty() && s.back() != '-')
      s += '-';
  }
  while (!s.empty() && s.back() == '-') s.pop_back();
  return s.empty() ? "unknown-gpu" : s;
}

bool GpuProfile::matches(const std::string& query) const {
  std::string q = normalize_gpu_name(query);
  if (q.empty()) return false;
  if (normalize_gpu_name(name) == q) return true;
  return std::any_of(aliases.begin(), aliases.end(), [&](const std::string& a) { return normalize_gpu_name(a) == q; });
}

bool parse_gpu_profile(const std::string& text, const std::string& path, GpuProfile* out, std::string* err) {
  json v = json::parse(text, nullptr, false);
  if (v.is_discarded()) {
    *err = path + ": invalid JSON";
    return false;
  }
  if (!v.is_object() || v.value("format", "") != "ucutlass-gpu-profile") {
    *err = path + ": /format: expected \"ucutlass-gpu-profile\"";
    return false;
  }
  GpuProfile g;
  g.file = path;
  if (!v.contains("name") || !v["name"].is_string() || v["name"].get<std::string>().empty()) {
    *err = path + ": /name: expected a non-empty string";
    return false;
  }
  g.name = v["name"];
  if (auto a = v.find("aliases"); a != v.end() && a->is_array())
    for (const json& x : *a)
      if (x.is_string()) g.aliases.push_back(x);
  g.source = v.value("source", "datasheet");
  g.arch = v.value("arch", "");
  g.sms = v.value("sms", 0);
  g.boost_clock_mhz = v.value("boost_clock_mhz", 0.0);
  g.l2_bytes = v.value("l2_bytes", int64_t{0});
  g.smem_per_sm_bytes = v.value("smem_per_sm_bytes", int64_t{0});
  if (g.sms <= 0) {
    *err = path + ": /sms: expected a positive SM count";
    return false;
  }
  if (auto d = v.find("datasheet"); d != v.end() && !d->is_null()) {
    Ceilings c;
    if (!read_ceilings(*d, path + ": /datasheet", &c, err)) return false;
    g.datasheet = c;
  }
  if (auto m = v.find("measured"); m != v.end() && !m->is_null()) {
    Ceilings c;
    if (!read_ceilings(*m, path + ": /measured", &c, err)) return false;
    g.measured = c;
    g.measured_date = m->value("date", "");
    g.measured_origin = m->value("origin", "");
    if (auto u = m->find("unavailable"); u != m->end() && u->is_object())
      for (auto it = u->begin(); it != u->end(); ++it)
        if (it->is_string()) g.unavailable[it.key()] = it.value();
  }
  if (!g.datasheet && !g.measured) {
    *err = path + ": the profile has neither \"datasheet\" nor \"measured\" ceilings";
    return false;
  }
  *out = std::move(g);
  return true;
}

bool load_gpu_profile(const std::string& path, GpuProfile* out, std::string* err) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *err = path + ": cannot open the profile";
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse_gpu_profile(text.str(), path, out, err);
}

GpuProfile merge_measured(const GpuProfile& base, const GpuProfile& measured) {
  GpuProfile g = base;
  g.source = "measured";
  g.file = measured.file + " (datasheet: " + base.file + ")";
  g.measured = measured.measured;
  g.measured_date = measured.measured_date;
  g.measured_origin = measured.measured_origin;
  g.unavailable = measured.unavailable;
  if (measured.sms > 0) g.sms = measured.sms;
  if (measured.l2_bytes > 0) g.l2_bytes = measured.l2_bytes;
  return g;
}

Rate hard_flops(const GpuProfile& gpu, MathPath path) {
  return lookup(gpu, path, [&](MathPath p) { return max_of(path_figure(gpu.datasheet, p), path_figure(gpu.measured, p)); });
}

Rate realistic_flops(const GpuProfile& gpu, MathPath path) {
  return lookup(gpu, path, [&](MathPath p) -> std::optional<double> {
    if (std::optional<double> m = path_figure(gpu.measured, p)) return m;
    if (std::optional<double> d = path_figure(gpu.datasheet, p))
      return *d * (is_tensor_path(p) ? kAttainableTensorFraction : kAttainableSimtFraction);
    return std::nullopt;
  });
}

double hard_dram_bandwidth(const GpuProfile& gpu) {
  std::optional<double> d = gpu.datasheet ? gpu.datasheet->dram_bytes_per_s : std::nullopt;
  std::optional<double> m = gpu.measured ? gpu.measured->dram_bytes_per_s : std::nullopt;
  return max_of(d, m).value_or(0);
}

double realistic_dram_bandwidth(const GpuProfile& gpu) {
  if (gpu.measured && gpu.measured->dram_bytes_per_s) return *gpu.measured->dram_bytes_per_s;
  if (gpu.datasheet && gpu.datasheet->dram_bytes_per_s) return *gpu.datasheet->dram_bytes_per_s * kAttainableDramFraction;
  return 0;
}

}  // namespace ucutlass::sol
