#include "ir/lower.h"

#include <functional>
#include <map>

#include "support/did_you_mean.h"

namespace ucutlass::ir {

namespace {

using dsl::Arg;
using dsl::Call;
using dsl::Expr;

// Settings a chain may hold, with the one-line form shown in diagnostics.
const std::vector<std::pair<std::string, std::string>>& chain_settings() {
  static const std::vector<std::pair<std::string, std::string>> s = {
      {"with_arch", "with_arch(sm90a | sm80)"},
      {"with_types", "with_types(a = bf16, b = bf16, c = void, d = bf16, acc = f32), or with_types(bf16)"},
      {"with_layouts", "with_layouts(a = row, b = col, c = row)"},
      {"with_math", "with_math(tensor_op | tf32 | tf32x3 | simt | fast_accum)"},
      {"with_tile", "with_tile(128, 128, 64)"},
      {"with_cluster", "with_cluster(2, 1, 1)"},
      {"with_warps", "with_warps(2, 2, 1)"},
      {"with_schedule", "with_schedule(cooperative, epilogue = tma)"},
      {"with_stages", "with_stages(4) or with_stages(auto)"},
      {"with_alignment", "with_alignment(a = 8, b = 8, c = 8)"},
      {"with_raster", "with_raster(along_m, swizzle = 2)"},
      {"with_scheduler", "with_scheduler(persistent | stream_k | split_k(4) | auto)"},
      {"with_epilogue", "with_epilogue(alpha(1.0), beta(0.0), bias(col), relu, clamp(0, 6))"},
  };
  return s;
}

std::vector<std::string> names_of(const std::vector<std::pair<std::string, std::string>>& v) {
  std::vector<std::string> out;
  for (const auto& p : v) out.push_back(p.first);
  return out;
}

class KernelLowering {
 public:
  KernelLowering(const dsl::KernelDecl& decl, Diagnostics& diags) : decl_(decl), diags_(diags) {}

  GemmKernel run() {
    k_.name = decl_.name;
    k_.span = decl_.span;
    k_.name_span = decl_.name_span;
    lower_op(decl_.op);
    std::map<std::string, Span> seen;
    for (const Call& c : decl_.chain) {
      auto [it, fresh] = seen.emplace(c.name, c.name_span);
      if (!fresh) {
        LineCol first = diags_.file().line_col(it->second.begin);
        diags_.error(c.name_span, c.name + " is given twice (first at line " + std::to_string(first.line) + ")",
                     "each setting at most once per kernel", "merge the two into one " + c.name + "(...)");
        continue;
      }
      lower_setting(c);
    }
    default_spans();
    return std::move(k_);
  }

 private:
  // ---- argument helpers -------------------------------------------------

  void error(Span s, std::string msg, std::string legal = {}, std::string hint = {}) {
    diags_.error(s, std::move(msg), std::move(legal), std::move(hint));
  }

  template <class E>
  bool enum_value(const Expr& e, const std::string& what, E& out) {
    std::vector<std::string> names = all_names<E>();
    if (e.kind != Expr::Kind::name) {
      error(e.span, what + " must be a name, not '" + dsl::expr_to_string(e) + "'", join_names(names));
      return false;
    }
    if (auto v = parse_enum<E>(e.text)) {
      out = *v;
      return true;
    }
    std::string guess = closest_name(e.text, names);
    error(e.span, "unknown " + what + " '" + e.text + "'", join_names(names),
          guess.empty() ? "" : "did you mean '" + guess + "'?");
    return false;
  }

  bool int_value(const Expr& e, const std::string& what, int64_t lo, int64_t hi, int64_t& out) {
    if (e.kind != Expr::Kind::integer) {
      error(e.span, what + " must be an integer, not '" + dsl::expr_to_string(e) + "'",
            "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
      return false;
    }
    if (e.int_value < lo || e.int_value > hi) {
      error(e.span, what + " = " + std::to_string(e.int_value) + " is out of range",
            "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
      return false;
    }
    out = e.int_value;
    return true;
  }

  bool real_value(const Expr& e, const std::string& what, double& out) {
    if (e.kind != Expr::Kind::integer && e.kind != Expr::Kind::real) {
      error(e.span, what + " must be a number, not '" + dsl::expr_to_string(e) + "'", "a number such as 0.5");
      return false;
    }
    out = e.real_value;
    return true;
  }

  static bool is_auto(const Expr& e) { return e.kind == Expr::Kind::name && e.text == "auto"; }

  // Checks that every argument of `args` is named and among `allowed`; then
  // calls `each(name, value)`.
  void named_args(const std::vector<Arg>& args, const std::string& setting, const std::vector<std::string>& allowed,
                  const std::function<void(const std::string&, const Expr&)>& each) {
    std::map<std::string, bool> seen;
    for (const Arg& a : args) {
      if (a.name.empty()) {
        error(a.span, setting + " takes named arguments here", join_names(allowed, " = ..., ") + " = ...");
        continue;
      }
      bool known = false;
      for (const std::string& n : allowed) known |= n == a.name;
      if (!known) {
        std::string guess = closest_name(a.name, allowed);
        error(a.name_span, "unknown argument '" + a.name + "' of " + setting, join_names(allowed),
              guess.empty() ? "" : "did you mean '" + guess + "'?");
        continue;
      }
      if (seen[a.name]) {
        error(a.name_span, "argument '" + a.name + "' of " + setting + " is given twice", "each argument once");
        continue;
      }
      seen[a.name] = true;
      each(a.name, *a.value);
    }
  }

  bool arg_count(const Call& c, size_t lo, size_t hi, const std::string& form) {
    if (c.args.size() < lo || c.args.size() > hi) {
      std::string want = lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
      error(c.span, c.name + " takes " + want + " argument" + (hi == 1 ? "" : "s") + ", got " +
                        std::to_string(c.args.size()),
            form);
      return false;
    }
    return true;
  }

  // (m, n, k) given as three positional integers or as m =, n =, k =.
  bool shape3(const Call& c, int64_t lo, int64_t hi, Shape3& out, const std::string& form) {
    if (!arg_count(c, 3, 3, form)) return false;
    int64_t v[3] = {0, 0, 0};
    static const char* kNames[3] = {"m", "n", "k"};
    bool ok = true;
    for (int i = 0; i < 3; ++i) {
      const Arg& a = c.args[i];
      int slot = i;
      if (!a.name.empty()) {
        slot = a.name == "m" ? 0 : a.name == "n" ? 1 : a.name == "k" ? 2 : -1;
        if (slot < 0) {
          error(a.name_span, "unknown argument '" + a.name + "' of " + c.name, "m, n, k");
          ok = false;
          continue;
        }
      }
      ok &= int_value(*a.value, c.name + " " + kNames[slot], lo, hi, v[slot]);
    }
    out = {static_cast<int>(v[0]), static_cast<int>(v[1]), static_cast<int>(v[2])};
    return ok;
  }

  // ---- the operation ----------------------------------------------------

  void lower_op(const Call& op) {
    if (op.name != "gemm") {
      std::string guess = closest_name(op.name, {"gemm"});
      error(op.name_span, "unknown operation '" + op.name + "'", "gemm(m = ..., n = ..., k = ..., batch = ...)",
            guess.empty() ? "" : "did you mean '" + guess + "'?");
      return;
    }
    // Extents beyond 2^31 - 1 overflow CUTLASS's int problem shape.
    constexpr int64_t kMaxExtent = 2147483647;
    named_args(op.args, "gemm", {"m", "n", "k", "batch"}, [&](const std::string& name, const Expr& e) {
      Extent* x = name == "m" ? &k_.m : name == "n" ? &k_.n : name == "k" ? &k_.k : &k_.batch;
      x->span = e.span;
      if (e.kind == Expr::Kind::name && e.text == "dynamic") {
        if (name == "batch") error(e.span, "batch must be a fixed count", "an integer >= 1");
        x->value = 0;
        return;
      }
      int64_t v = 0;
      if (int_value(e, "gemm " + name, 1, kMaxExtent, v)) x->value = v;
    });
  }

  // ---- the chain ----------------------------------------------------------

  void lower_setting(const Call& c) {
    static const std::map<std::string, void (KernelLowering::*)(const Call&)> handlers = {
        {"with_arch", &KernelLowering::with_arch},         {"with_types", &KernelLowering::with_types},
        {"with_layouts", &KernelLowering::with_layouts},   {"with_math", &KernelLowering::with_math},
        {"with_tile", &KernelLowering::with_tile},         {"with_cluster", &KernelLowering::with_cluster},
        {"with_warps", &KernelLowering::with_warps},       {"with_schedule", &KernelLowering::with_schedule},
        {"with_stages", &KernelLowering::with_stages},     {"with_alignment", &KernelLowering::with_alignment},
        {"with_raster", &KernelLowering::with_raster},     {"with_scheduler", &KernelLowering::with_scheduler},
        {"with_epilogue", &KernelLowering::with_epilogue},
    };
    auto it = handlers.find(c.name);
    if (it == handlers.end()) {
      std::vector<std::string> names = names_of(chain_settings());
      std::string guess = closest_name(c.name, names);
      error(c.name_span, "unknown setting '" + c.name + "'", join_names(names),
            guess.empty() ? "" : "did you mean '" + guess + "'?");
      return;
    }
    (this->*(it->second))(c);
  }

  template <class T>
  void set(Setting<T>& s, T v, Span span) {
    s.value = v;
    s.span = span;
    s.is_auto = false;
  }
  // An explicit `auto` keeps the setting open for resolve_auto.
  void set(Setting<KernelSchedule>& s, KernelSchedule v, Span span) {
    s.span = span;
    s.is_auto = v == KernelSchedule::auto_;
    s.value = v;
  }
  void set(Setting<EpilogueSchedule>& s, EpilogueSchedule v, Span span) {
    s.span = span;
    s.is_auto = v == EpilogueSchedule::auto_;
    s.value = v;
  }

  template <class E>
  void single_enum(const Call& c, Setting<E>& s, const std::string& what, const std::string& form) {
    if (!arg_count(c, 1, 1, form)) return;
    const Arg& a = c.args[0];
    if (!a.name.empty()) {
      error(a.name_span, c.name + " takes one positional value", form);
      return;
    }
    E v{};
    if (enum_value(*a.value, what, v)) set(s, v, a.value->span);
  }

  void with_arch(const Call& c) { single_enum(c, k_.arch, "architecture", "with_arch(sm90a | sm80)"); }
  void with_math(const Call& c) {
    single_enum(c, k_.math, "math path", "with_math(tensor_op | tf32 | tf32x3 | simt | fast_accum)");
  }

  void with_types(const Call& c) {
    if (c.args.size() == 1 && c.args[0].name.empty()) {
      DType t{};
      const Expr& e = *c.args[0].value;
      if (!enum_value(e, "element type", t)) return;
      for (Setting<DType>* s : {&k_.a, &k_.b, &k_.d}) set(*s, t, e.span);
      return;
    }
    named_args(c.args, "with_types", {"a", "b", "c", "d", "acc"}, [&](const std::string& n, const Expr& e) {
      DType t{};
      if (!enum_value(e, "element type", t)) return;
      Setting<DType>& s = n == "a" ? k_.a : n == "b" ? k_.b : n == "c" ? k_.c : n == "d" ? k_.d : k_.acc;
      set(s, t, e.span);
    });
  }

  void with_layouts(const Call& c) {
    named_args(c.args, "with_layouts", {"a", "b", "c"}, [&](const std::string& n, const Expr& e) {
      Layout l{};
      if (!enum_value(e, "layout", l)) return;
      set(n == "a" ? k_.layout_a : n == "b" ? k_.layout_b : k_.layout_c, l, e.span);
    });
  }

  void with_tile(const Call& c) {
    Shape3 s;
    if (shape3(c, 1, 1024, s, "with_tile(M, N, K) such as with_tile(128, 128, 64)")) set(k_.tile, s, c.span);
  }
  void with_cluster(const Call& c) {
    Shape3 s;
    if (shape3(c, 1, 16, s, "with_cluster(M, N, K) such as with_cluster(2, 1, 1)")) set(k_.cluster, s, c.span);
  }
  void with_warps(const Call& c) {
    Shape3 s;
    if (shape3(c, 1, 16, s, "with_warps(M, N, K) such as with_warps(2, 2, 1)")) set(k_.warps, s, c.span);
  }

  void with_schedule(const Call& c) {
    const std::string form = "with_schedule(cooperative, epilogue = tma)";
    if (!arg_count(c, 1, 2, form)) return;
    for (const Arg& a : c.args) {
      if (a.name.empty() || a.name == "kernel") {
        KernelSchedule s{};
        if (enum_value(*a.value, "kernel schedule", s)) set(k_.schedule, s, a.value->span);
      } else if (a.name == "epilogue") {
        EpilogueSchedule s{};
        if (enum_value(*a.value, "epilogue schedule", s)) set(k_.epilogue_schedule, s, a.value->span);
      } else {
        std::string guess = closest_name(a.name, {"kernel", "epilogue"});
        error(a.name_span, "unknown argument '" + a.name + "' of with_schedule", "kernel, epilogue",
              guess.empty() ? "" : "did you mean '" + guess + "'?");
      }
    }
  }

  void with_stages(const Call& c) {
    if (!arg_count(c, 1, 1, "with_stages(4) or with_stages(auto)")) return;
    const Expr& e = *c.args[0].value;
    if (is_auto(e)) return;
    int64_t v = 0;
    if (int_value(e, "stages", 1, 32, v)) set(k_.stages, static_cast<int>(v), e.span);
  }

  void with_alignment(const Call& c) {
    named_args(c.args, "with_alignment", {"a", "b", "c"}, [&](const std::string& n, const Expr& e) {
      if (is_auto(e)) return;
      int64_t v = 0;
      if (!int_value(e, "alignment of " + n, 1, 128, v)) return;
      if (v & (v - 1)) {
        error(e.span, "alignment of " + n + " = " + std::to_string(v) + " is not a power of two",
              "1, 2, 4, 8, 16, ... elements");
        return;
      }
      set(n == "a" ? k_.align_a : n == "b" ? k_.align_b : k_.align_c, static_cast<int>(v), e.span);
    });
  }

  void with_raster(const Call& c) {
    const std::string form = "with_raster(along_m, swizzle = 2)";
    if (!arg_count(c, 1, 2, form)) return;
    for (const Arg& a : c.args) {
      if (a.name.empty() || a.name == "order") {
        RasterOrder r{};
        if (enum_value(*a.value, "raster order", r)) set(k_.raster, r, a.value->span);
      } else if (a.name == "swizzle") {
        int64_t v = 0;
        if (!int_value(*a.value, "swizzle", 1, 8, v)) continue;
        if (v != 1 && v != 2 && v != 4 && v != 8) {
          error(a.value->span, "swizzle = " + std::to_string(v) + " is not supported", "1, 2, 4, 8");
          continue;
        }
        set(k_.swizzle, static_cast<int>(v), a.value->span);
      } else {
        std::string guess = closest_name(a.name, {"order", "swizzle"});
        error(a.name_span, "unknown argument '" + a.name + "' of with_raster", "order, swizzle",
              guess.empty() ? "" : "did you mean '" + guess + "'?");
      }
    }
  }

  void with_scheduler(const Call& c) {
    const std::string form = "with_scheduler(persistent | stream_k | split_k(4) | auto)";
    if (!arg_count(c, 1, 1, form)) return;
    const Expr& e = *c.args[0].value;
    if (e.kind == Expr::Kind::call) {
      if (e.text != "split_k") {
        error(e.callee_span, "'" + e.text + "(...)' is not a tile scheduler", form);
        return;
      }
      if (e.args.size() != 1 || !e.args[0].name.empty()) {
        error(e.span, "split_k takes one slice count", "split_k(2) ... split_k(128)");
        return;
      }
      int64_t v = 0;
      if (!int_value(*e.args[0].value, "split_k slices", 2, 512, v)) return;
      set(k_.scheduler, TileScheduler::split_k, e.span);
      set(k_.splits, static_cast<int>(v), e.args[0].value->span);
      return;
    }
    TileScheduler s{};
    if (!enum_value(e, "tile scheduler", s)) return;
    if (s == TileScheduler::split_k) {
      error(e.span, "split_k needs a slice count", "split_k(4)");
      return;
    }
    if (s != TileScheduler::auto_) set(k_.scheduler, s, e.span);
  }

  void with_epilogue(const Call& c) {
    static const std::vector<std::string> kSteps = {"alpha", "beta", "bias", "relu", "gelu", "gelu_tanh", "silu",
                                                    "sigmoid", "tanh", "leaky_relu", "clamp"};
    for (const Arg& a : c.args) {
      if (!a.name.empty()) {
        error(a.name_span, "with_epilogue takes a list of steps, not named arguments",
              "alpha(x), beta(x), bias(col | row), " + join_names(all_names<Activation>()));
        continue;
      }
      const Expr& e = *a.value;
      if (e.kind != Expr::Kind::name && e.kind != Expr::Kind::call) {
        error(e.span, "an epilogue step must be a name or a call, not '" + dsl::expr_to_string(e) + "'",
              join_names(kSteps));
        continue;
      }
      epilogue_step(e);
    }
  }

  std::vector<const Expr*> step_args(const Expr& e, size_t lo, size_t hi, const std::string& form) {
    std::vector<const Expr*> out;
    size_t n = e.kind == Expr::Kind::call ? e.args.size() : 0;
    if (n < lo || n > hi) {
      error(e.span, "'" + e.text + "' takes " + (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
                        " argument" + (hi == 1 ? "" : "s") + ", got " + std::to_string(n),
            form);
      return {};
    }
    for (size_t i = 0; i < n; ++i) out.push_back(e.args[i].value.get());
    if (out.empty() && lo == 0) out.push_back(nullptr);
    return out;
  }

  void epilogue_step(const Expr& e) {
    const std::string& n = e.text;
    Span name_span = e.kind == Expr::Kind::call ? e.callee_span : e.span;
    if (n == "alpha" || n == "beta") {
      auto args = step_args(e, 1, 1, n + "(1.0)");
      double v = 0;
      if (args.empty() || !real_value(*args[0], n, v)) return;
      if (n == "alpha") set(k_.alpha, v, e.span);
      else set(k_.beta, v, e.span);
      return;
    }
    EpilogueStep step;
    step.span = e.span;
    if (n == "bias") {
      auto args = step_args(e, 1, 2, "bias(col) or bias(col, f32)");
      if (args.empty()) return;
      step.kind = EpilogueStep::Kind::bias;
      if (!enum_value(*args[0], "bias kind", step.bias)) return;
      if (args.size() == 2 && !enum_value(*args[1], "bias element type", step.bias_type)) return;
      if (k_.has_bias()) {
        error(e.span, "only one bias per kernel", "one bias(col) or bias(row)");
        return;
      }
      k_.epilogue.push_back(step);
      return;
    }
    auto act = parse_enum<Activation>(n);
    if (!act) {
      static const std::vector<std::string> kSteps = {"alpha", "beta", "bias", "relu", "gelu", "gelu_tanh", "silu",
                                                      "sigmoid", "tanh", "leaky_relu", "clamp"};
      std::string guess = closest_name(n, kSteps);
      error(name_span, "unknown epilogue step '" + n + "'", join_names(kSteps),
            guess.empty() ? "" : "did you mean '" + guess + "'?");
      return;
    }
    step.kind = EpilogueStep::Kind::activation;
    step.act = *act;
    if (*act == Activation::leaky_relu) {
      auto args = step_args(e, 0, 1, "leaky_relu or leaky_relu(0.01)");
      if (args.empty()) return;
      step.p0 = 0.01;
      if (args[0] && !real_value(*args[0], "leaky_relu slope", step.p0)) return;
    } else if (*act == Activation::clamp) {
      auto args = step_args(e, 2, 2, "clamp(lower, upper) such as clamp(0, 6)");
      if (args.empty()) return;
      if (!real_value(*args[0], "clamp lower bound", step.p0) || !real_value(*args[1], "clamp upper bound", step.p1))
        return;
      if (step.p0 > step.p1) {
        error(e.span, "clamp lower bound is above the upper bound", "clamp(lower, upper) with lower <= upper");
        return;
      }
    } else if (e.kind == Expr::Kind::call && !e.args.empty()) {
      error(e.span, "'" + n + "' takes no arguments", n);
      return;
    }
    k_.epilogue.push_back(step);
  }

  // Settings left unset point at the declaration's name, so a legality error
  // about a default still lands on the kernel it concerns.
  void default_spans() {
    auto fix = [&](auto& s) {
      if (s.is_auto && s.span == Span{}) s.span = k_.name_span;
    };
    fix(k_.arch); fix(k_.a); fix(k_.b); fix(k_.c); fix(k_.d); fix(k_.acc);
    fix(k_.layout_a); fix(k_.layout_b); fix(k_.layout_c); fix(k_.math); fix(k_.tile); fix(k_.cluster);
    fix(k_.warps); fix(k_.schedule); fix(k_.epilogue_schedule); fix(k_.stages); fix(k_.align_a);
    fix(k_.align_b); fix(k_.align_c); fix(k_.raster); fix(k_.swizzle); fix(k_.scheduler); fix(k_.splits);
    fix(k_.alpha); fix(k_.beta);
    for (Extent* e : {&k_.m, &k_.n, &k_.k, &k_.batch})
      if (e->span == Span{}) e->span = decl_.op.name_span;
  }

  const dsl::KernelDecl& decl_;
  Diagnostics& diags_;
  GemmKernel k_;
};

}  // namespace

Program lower_program(const dsl::Program& ast, Diagnostics& diags) {
  Program p;
  std::map<std::string, Span> names;
  for (const dsl::KernelDecl& decl : ast.kernels) {
    auto [it, fresh] = names.emplace(decl.name, decl.name_span);
    if (!fresh) {
      LineCol first = diags.file().line_col(it->second.begin);
      diags.error(decl.name_span,
                  "kernel '" + decl.name + "' is declared twice (first at line " + std::to_string(first.line) + ")",
                  "a unique name per kernel");
      continue;
    }
    p.kernels.push_back(KernelLowering(decl, diags).run());
  }
  if (ast.kernels.empty() && !diags.has_errors())
    diags.error(Span{0, 0}, "no kernel declarations", "kernel NAME = gemm(m = ..., n = ..., k = ...).with_...(...)");
  return p;
}

}  // namespace ucutlass::ir
