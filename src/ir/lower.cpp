#include "ir/lower.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>

#include "dsl/formula.h"
#include "ir/lower_conv.h"
#include "ir/validate_conv.h"
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
      {"with_operand_swap", "with_operand_swap(on | off | auto)"},
      {"with_gemv", "with_gemv(access = 4, threads_per_row = 16, threads = 128)"},
      {"with_rows", "with_rows(access = 4, threads = 512, items = 8, splits = 1)"},
      {"with_attention", "with_attention(block_q = 64, block_k = 64, scores = bf16x3)"},
      {"with_epilogue", "with_epilogue(alpha(1.0), beta(0.0), bias(col), relu, clamp(0, 6), custom(\"x * s\", s = scalar))"},
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
    if (is_conv_operation(op.name)) return lower_conv(op);
    if (op.name == "gemv") return lower_gemv(op);
    if (auto row_op = parse_enum<RowOp>(op.name)) return lower_rows(op, *row_op);
    if (op.name == "attention") return lower_attention(op);
    if (op.name != "gemm") {
      std::vector<std::string> names = {"gemm", "gemv", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
                                        "conv_transpose2d", "conv_transpose3d", "attention"};
      for (const std::string& n : all_names<RowOp>()) names.push_back(n);
      std::string guess = closest_name(op.name, names);
      error(op.name_span, "unknown operation '" + op.name + "'",
            "gemm(m = ..., n = ..., k = ..., batch = ... | groups = ...), gemv(m = ..., k = ..., batch = ...), "
            "conv1d(...), conv2d(...), conv3d(...), conv_transpose1d(...), conv_transpose2d(...), "
            "conv_transpose3d(...), attention(batch = ..., seq_q = ..., seq_k = ..., head_dim = ...), or a row "
            "kernel " + join_names(all_names<RowOp>()) + "(rows = ..., length = ...)",
            guess.empty() ? "" : "did you mean '" + guess + "'?");
      return;
    }
    lower_extents(op, {"m", "n", "k", "batch", "groups"});
  }

  // y = A x is the GEMM with n = 1 whose B is the vector x (K x 1, contiguous).
  void lower_gemv(const Call& op) {
    k_.gemv = true;
    k_.n = {1, op.name_span};
    lower_extents(op, {"m", "k", "batch"});
  }

  // A row kernel (row_problem.h): rows and length are required and fixed; a norm takes eps and
  // affine, a group norm also its groups and channel span.
  void lower_rows(const Call& op, RowOp row_op) {
    RowProblem r;
    r.op = row_op;
    r.op_span = op.name_span;
    std::vector<std::string> allowed = {"rows", "length"};
    if (row_op == RowOp::groupnorm) allowed.insert(allowed.end(), {"groups", "channel_span"});
    if (row_op_normalizes(row_op)) allowed.insert(allowed.end(), {"eps", "affine"});
    bool has_rows = false, has_length = false, has_groups = false, has_span = false;
    named_args(op.args, op.name, allowed, [&](const std::string& name, const Expr& e) {
      int64_t v = 0;
      if (name == "eps") {
        r.eps_span = e.span;
        real_value(e, op.name + " eps", r.eps);
      } else if (name == "affine") {
        r.affine_span = e.span;
        if (e.kind == Expr::Kind::name && (e.text == "on" || e.text == "off")) r.affine = e.text == "on";
        else error(e.span, op.name + " affine must be on or off, not '" + dsl::expr_to_string(e) + "'", "on, off");
      } else if (int_value(e, op.name + " " + name, 1, int64_t{1} << 40, v)) {
        if (name == "rows") r.rows = v, r.rows_span = e.span, has_rows = true;
        if (name == "length") r.length = v, r.length_span = e.span, has_length = true;
        if (name == "groups") r.groups = v, r.groups_span = e.span, has_groups = true;
        if (name == "channel_span") r.channel_span = v, r.channel_span_span = e.span, has_span = true;
      }
    });
    auto need = [&](bool given, const char* what) {
      if (!given)
        error(op.span, op.name + " needs " + what, op.name + "(" + join_names(allowed, " = ..., ") + " = ...)");
    };
    need(has_rows, "rows = ... (fixed)");
    need(has_length, "length = ... (fixed)");
    if (row_op == RowOp::groupnorm) {
      need(has_groups, "groups = ... (the groups of one sample)");
      need(has_span, "channel_span = ... (the elements of one channel, H*W)");
    }
    if (r.eps_span == Span{}) r.eps_span = op.name_span;
    if (r.groups_span == Span{}) r.groups_span = op.name_span;
    if (r.channel_span_span == Span{}) r.channel_span_span = op.name_span;
    k_.m = {r.rows, r.rows_span};
    k_.n = {1, op.name_span};
    k_.k = {r.length, r.length_span};
    k_.rows = r;
  }

  // An attention kernel (attention_problem.h): batch, seq_q, seq_k and head_dim are required and fixed;
  // scale defaults to 1 / sqrt(head_dim), mask to none.
  void lower_attention(const Call& op) {
    AttentionProblem a;
    bool given[4] = {false, false, false, false};
    named_args(op.args, op.name, {"batch", "seq_q", "seq_k", "head_dim", "scale", "mask"},
               [&](const std::string& name, const Expr& e) {
                 int64_t v = 0;
                 if (name == "scale") {
                   a.scale_span = e.span;
                   real_value(e, "attention scale", a.scale);
                 } else if (name == "mask") {
                   a.mask_span = e.span;
                   enum_value(e, "attention mask", a.mask);
                 } else if (int_value(e, "attention " + name, 1, 2147483647, v)) {
                   const int slot = name == "batch" ? 0 : name == "seq_q" ? 1 : name == "seq_k" ? 2 : 3;
                   int64_t* field[4] = {&a.batch, &a.seq_q, &a.seq_k, &a.head_dim};
                   Span* span[4] = {&a.batch_span, &a.seq_q_span, &a.seq_k_span, &a.head_dim_span};
                   *field[slot] = v;
                   *span[slot] = e.span;
                   given[slot] = true;
                 }
               });
    const char* names[4] = {"batch", "seq_q", "seq_k", "head_dim"};
    for (int i = 0; i < 4; ++i)
      if (!given[i])
        error(op.span, std::string("attention needs ") + names[i] + " = ... (fixed)",
              "attention(batch = ..., seq_q = ..., seq_k = ..., head_dim = ..., scale = ..., mask = none | causal | tensor)");
    for (Span* s : {&a.scale_span, &a.mask_span})
      if (*s == Span{}) *s = op.name_span;
    k_.m = {a.batch * a.seq_q, a.seq_q_span};
    k_.n = {a.head_dim, a.head_dim_span};
    k_.k = {a.seq_k, a.seq_k_span};
    k_.attention = a;
  }

  void lower_extents(const Call& op, const std::vector<std::string>& allowed) {
    // Extents beyond 2^31 - 1 overflow CUTLASS's int problem shape.
    constexpr int64_t kMaxExtent = 2147483647;
    named_args(op.args, op.name, allowed, [&](const std::string& name, const Expr& e) {
      if (name == "groups") k_.groups = Extent{};
      Extent* x = name == "m"       ? &k_.m
                  : name == "n"     ? &k_.n
                  : name == "k"     ? &k_.k
                  : name == "batch" ? &k_.batch
                                    : &*k_.groups;
      x->span = e.span;
      if (e.kind == Expr::Kind::name && e.text == "dynamic") {
        if (name == "batch") error(e.span, "batch must be a fixed count", "an integer >= 1");
        x->value = 0;
        return;
      }
      int64_t v = 0;
      if (int_value(e, op.name + " " + name, 1, kMaxExtent, v)) x->value = v;
    });
  }

  // A convolution is its implicit GEMM: m, n, k follow from the problem (conv_problem.h).
  void lower_conv(const Call& op) {
    ConvProblem p;
    if (!lower_conv_operation(op, p, diags_)) return;
    const ConvGemmExtents e = conv_gemm_extents(p);
    k_.m = {e.m, op.name_span};
    k_.n = {e.n, op.name_span};
    k_.k = {e.k, op.name_span};
    k_.conv = p;
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
        {"with_epilogue", &KernelLowering::with_epilogue}, {"with_operand_swap", &KernelLowering::with_operand_swap},
        {"with_gemv", &KernelLowering::with_gemv},         {"with_rows", &KernelLowering::with_rows},
        {"with_attention", &KernelLowering::with_attention},
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

  void with_operand_swap(const Call& c) {
    single_enum(c, k_.operand_swap, "operand swap", "with_operand_swap(on | off | auto)");
    k_.operand_swap.is_auto = k_.operand_swap.value == OperandSwap::auto_;
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

  // Each lever a count or `auto`; whether the kernel is a gemv, and which counts CUTLASS's
  // Gemv takes, is judged by validate_gemv.
  void with_gemv(const Call& c) {
    if (!k_.gemv) {
      error(c.name_span, "with_gemv applies to gemv kernels only", "gemv(m = ..., k = ...).with_gemv(...)",
            "declare y = A x as gemv(m = M, k = K)");
      return;
    }
    GemvLevers& g = k_.gemv_levers;
    g.access.span = g.threads_per_row.span = g.threads.span = c.span;
    named_args(c.args, "with_gemv", {"access", "threads_per_row", "threads"}, [&](const std::string& n, const Expr& e) {
      Setting<int>& s = n == "access" ? g.access : n == "threads_per_row" ? g.threads_per_row : g.threads;
      if (is_auto(e)) {
        s.span = e.span;
        return;
      }
      int64_t v = 0;
      if (int_value(e, "with_gemv " + n, 1, 1024, v)) set(s, static_cast<int>(v), e.span);
    });
  }

  // Each lever a count or `auto`; which counts the row kernel takes is judged by validate_rows.
  void with_rows(const Call& c) {
    if (!k_.rows) {
      error(c.name_span, "with_rows applies to row kernels only", "softmax(rows = ..., length = ...).with_rows(...)",
            "declare a row kernel as " + join_names(all_names<RowOp>()) + "(rows = R, length = L)");
      return;
    }
    RowLevers& l = k_.row_levers;
    l.access.span = l.threads.span = l.items.span = l.splits.span = c.span;
    named_args(c.args, "with_rows", {"access", "threads", "items", "splits"}, [&](const std::string& n, const Expr& e) {
      Setting<int>& s = n == "access" ? l.access : n == "threads" ? l.threads : n == "items" ? l.items : l.splits;
      if (is_auto(e)) {
        s.span = e.span;
        return;
      }
      int64_t v = 0;
      if (int_value(e, "with_rows " + n, 1, 4096, v)) set(s, static_cast<int>(v), e.span);
    });
  }

  // Each lever a count or `auto`; which ones the kernel is built for is judged by validate_attention.
  void with_attention(const Call& c) {
    if (!k_.attention) {
      error(c.name_span, "with_attention applies to attention kernels only",
            "attention(batch = ..., seq_q = ..., seq_k = ..., head_dim = ...).with_attention(...)");
      return;
    }
    AttentionLevers& l = k_.attention_levers;
    l.block_q.span = l.block_k.span = l.scores.span = c.span;
    named_args(c.args, "with_attention", {"block_q", "block_k", "scores"}, [&](const std::string& n, const Expr& e) {
      if (n == "scores") {
        AttentionScores v{};
        if (is_auto(e)) l.scores.span = e.span;
        else if (enum_value(e, "attention scores", v)) set(l.scores, v, e.span);
        return;
      }
      Setting<int>& s = n == "block_q" ? l.block_q : l.block_k;
      if (is_auto(e)) {
        s.span = e.span;
        return;
      }
      int64_t v = 0;
      if (int_value(e, "with_attention " + n, 1, 1024, v)) set(s, static_cast<int>(v), e.span);
    });
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

  // ---- the epilogue -------------------------------------------------------

  static const std::vector<std::string>& step_names() {
    static const std::vector<std::string> s = [] {
      std::vector<std::string> v = {"alpha", "beta", "bias"};
      for (const std::string& a : all_names<Activation>()) v.push_back(a);
      for (const char* n : {"clip", "scale", "add", "sub", "mul", "div", "min", "max", "per_row_scale",
                            "per_col_scale", "per_channel_scale", "residual", "aux_load", "aux_store", "row_sum", "row_max",
                            "col_sum", "col_max", "custom"})
        v.push_back(n);
      return v;
    }();
    return s;
  }

  void with_epilogue(const Call& c) {
    for (const Arg& a : c.args) {
      if (!a.name.empty()) {
        error(a.name_span, "with_epilogue takes a list of steps, not named arguments", join_names(step_names()));
        continue;
      }
      const Expr& e = *a.value;
      if (e.kind != Expr::Kind::name && e.kind != Expr::Kind::call) {
        error(e.span, "an epilogue step must be a name or a call, not '" + dsl::expr_to_string(e) + "'",
              join_names(step_names()));
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
                        " argument" + (lo == 1 && hi == 1 ? "" : "s") + ", got " + std::to_string(n),
            form);
      return {};
    }
    for (size_t i = 0; i < n; ++i) {
      if (!e.args[i].name.empty()) {
        error(e.args[i].name_span, "'" + e.text + "' takes positional arguments", form);
        return {};
      }
      out.push_back(e.args[i].value.get());
    }
    if (out.empty() && lo == 0) out.push_back(nullptr);
    return out;
  }

  // A new extra operand; its name is `base`, or base_2, base_3, ... when taken.
  int add_extra(std::string base, ExtraKind kind, DType type, bool is_output, Span span, bool exact_name = false) {
    std::string name = base;
    for (int i = 2; extra_index(name) >= 0; ++i) {
      if (exact_name) {
        error(span, "an epilogue operand named '" + base + "' already exists in this kernel",
              "a name used by no other step");
        return -1;
      }
      name = base + "_" + std::to_string(i);
    }
    if (static_cast<int>(k_.extras.size()) >= GemmKernel::kMaxExtras) {
      error(span, "more than " + std::to_string(GemmKernel::kMaxExtras) + " extra epilogue operands",
            "at most " + std::to_string(GemmKernel::kMaxExtras) + " vectors, scalars and aux tensors per kernel");
      return -1;
    }
    k_.extras.push_back(EpilogueExtra{name, kind, type, is_output, span});
    return static_cast<int>(k_.extras.size()) - 1;
  }

  int extra_index(const std::string& name) const {
    for (size_t i = 0; i < k_.extras.size(); ++i)
      if (k_.extras[i].name == name) return static_cast<int>(i);
    return -1;
  }

  // An element type given as the optional argument of row(T), col(T), aux(T), residual(T) ...
  bool optional_dtype(const Expr* e, const std::string& what, DType& out) {
    out = DType::void_;
    if (e == nullptr) return true;
    if (!enum_value(*e, what + " element type", out)) return false;
    if (out == DType::void_) {
      error(e->span, what + " cannot have element type void", "f16, bf16, f32");
      return false;
    }
    return true;
  }

  // `scalar`, `row`, `col`, `aux`, or `row(f32)`, `col(bf16)`, `aux(f16)`.
  bool operand_kind(const Expr& e, const std::string& what, ExtraKind& kind, DType& type) {
    const std::string form = "scalar, row, col, aux, or row(f32), col(f32), aux(bf16)";
    if (e.kind != Expr::Kind::name && e.kind != Expr::Kind::call) {
      error(e.span, what + " must be an operand kind, not '" + dsl::expr_to_string(e) + "'", form);
      return false;
    }
    if (!enum_value(Expr{Expr::Kind::name, e.kind == Expr::Kind::call ? e.callee_span : e.span, 0, 0, e.text},
                    "operand kind", kind))
      return false;
    type = kind == ExtraKind::scalar ? DType::f32 : DType::void_;
    if (e.kind != Expr::Kind::call) return true;
    if (kind == ExtraKind::scalar) {
      error(e.span, "a scalar operand is always f32", "scalar");
      return false;
    }
    auto args = step_args(e, 1, 1, e.text + "(f32)");
    return !args.empty() && optional_dtype(args[0], e.text, type);
  }

  static EpiExpr leaf(EpiExpr::Op op, double value = 0, int extra = -1) {
    EpiExpr x;
    x.op = op;
    x.value = value;
    x.extra = extra;
    return x;
  }

  static EpiExpr binary(EpiExpr::Op op, EpiExpr lhs, EpiExpr rhs) {
    EpiExpr x;
    x.op = op;
    x.args.push_back(std::move(lhs));
    x.args.push_back(std::move(rhs));
    return x;
  }

  static EpiExpr call(EpiFn fn, std::vector<EpiExpr> args) {
    EpiExpr x;
    x.op = EpiExpr::Op::call;
    x.fn = fn;
    x.args = std::move(args);
    return x;
  }

  void push_expr(const Expr& e, const std::string& label, EpiExpr expr) {
    EpilogueStep step;
    step.kind = EpilogueStep::Kind::expr;
    step.span = e.span;
    step.label = label;
    step.expr = std::move(expr);
    k_.epilogue.push_back(std::move(step));
  }

  // add(x), sub(x), mul(x), div(x), min(x), max(x), scale(x): x = number | scalar | row | col | aux (| T)
  void arithmetic_step(const Expr& e) {
    const std::string& n = e.text;
    const bool is_scale = n == "scale";
    const std::string form = is_scale ? "scale(0.5) or scale(scalar)"
                                      : n + "(0.5), " + n + "(scalar), " + n + "(col), " + n + "(row), " + n +
                                            "(aux), or with a type: " + n + "(col(f32))";
    auto args = step_args(e, 1, 1, form);
    if (args.empty()) return;
    const Expr& v = *args[0];
    EpiExpr operand;
    if (v.kind == Expr::Kind::integer || v.kind == Expr::Kind::real) {
      operand = leaf(EpiExpr::Op::constant, v.real_value);
    } else {
      ExtraKind kind{};
      DType type{};
      if (!operand_kind(v, n + " operand", kind, type)) return;
      if (is_scale && kind != ExtraKind::scalar) {
        error(v.span, "scale takes a number or a runtime scalar", form,
              "per_row_scale, per_col_scale or mul(" + std::string(name_of(kind)) + ") for vectors and tensors");
        return;
      }
      int i = add_extra(is_scale ? "scale" : n + "_" + std::string(name_of(kind)), kind, type, false, v.span);
      if (i < 0) return;
      operand = leaf(EpiExpr::Op::extra, 0, i);
    }
    EpiExpr x = leaf(EpiExpr::Op::x);
    EpiExpr expr;
    if (n == "min" || n == "max") expr = call(n == "min" ? EpiFn::min : EpiFn::max, {x, operand});
    else
      expr = binary(n == "add" ? EpiExpr::Op::add : n == "sub" ? EpiExpr::Op::sub
                  : n == "div" ? EpiExpr::Op::div : EpiExpr::Op::mul,
                    x, operand);
    push_expr(e, n, std::move(expr));
  }

  // per_row_scale, per_col_scale, per_channel_scale, residual, aux_load: x (op)= an extra, optional type.
  void extra_operand_step(const Expr& e, ExtraKind kind, EpiExpr::Op op) {
    auto args = step_args(e, 0, 1, e.text + " or " + e.text + "(f32)");
    DType type{};
    if (args.empty() || !optional_dtype(args[0], e.text, type)) return;
    int i = add_extra(e.text, kind, type, false, e.span);
    if (i < 0) return;
    push_expr(e, e.text, binary(op, leaf(EpiExpr::Op::x), leaf(EpiExpr::Op::extra, 0, i)));
  }

  void aux_store_step(const Expr& e) {
    auto args = step_args(e, 0, 1, "aux_store or aux_store(f32)");
    DType type{};
    if (args.empty() || !optional_dtype(args[0], "aux_store", type)) return;
    int i = add_extra("aux_store", ExtraKind::matrix, type, true, e.span);
    if (i < 0) return;
    EpilogueStep step;
    step.kind = EpilogueStep::Kind::aux_store;
    step.span = e.span;
    step.label = "aux_store";
    step.extra = i;
    k_.epilogue.push_back(std::move(step));
  }

  // row_sum, row_max (one value per output row: a length-M vector), col_sum, col_max
  // (per column: length N), each with an optional output type. The output is f32
  // unless asked otherwise, whatever D's type: a bf16 sum of thousands of values
  // keeps only 8 significant bits, too few for the normalizer of a softmax or norm.
  void reduction_step(const Expr& e) {
    const std::string& n = e.text;
    auto args = step_args(e, 0, 1, n + " or " + n + "(bf16)");
    DType type{};
    if (args.empty() || !optional_dtype(args[0], n, type)) return;
    if (type == DType::void_) type = DType::f32;
    const ExtraKind kind = n.starts_with("row_") ? ExtraKind::row : ExtraKind::col;
    int i = add_extra(n, kind, type, true, e.span);
    if (i < 0) return;
    EpilogueStep step;
    step.kind = EpilogueStep::Kind::reduce;
    step.reduce = n.ends_with("_sum") ? ReduceOp::sum : ReduceOp::max;
    step.span = e.span;
    step.label = n;
    step.extra = i;
    k_.epilogue.push_back(std::move(step));
  }

  // custom("expr", name = kind, ...)
  void custom_step(const Expr& e) {
    const std::string form = "custom(\"relu(x * s + b)\", s = scalar, b = col)";
    if (e.kind != Expr::Kind::call || e.args.empty() || !e.args[0].name.empty() ||
        e.args[0].value->kind != Expr::Kind::string) {
      error(e.span, "custom takes the expression as a string first, then its named inputs", form);
      return;
    }
    const Expr& text = *e.args[0].value;
    std::map<std::string, int> inputs;
    std::map<std::string, Span> input_spans;
    for (size_t i = 1; i < e.args.size(); ++i) {
      const Arg& a = e.args[i];
      if (a.name.empty()) {
        error(a.span, "the inputs of custom are named: NAME = scalar | row | col | aux", form);
        return;
      }
      static const std::vector<std::string> kReserved = {"x", "acc", "c", "a", "b", "d", "bias", "alpha", "beta"};
      bool reserved = std::find(kReserved.begin(), kReserved.end(), a.name) != kReserved.end() ||
                      parse_enum<EpiFn>(a.name).has_value();
      if (reserved) {
        error(a.name_span, "'" + a.name + "' is a reserved name in custom expressions",
              "a name other than x, acc, c, a, b, d, bias, alpha, beta and the function names");
        return;
      }
      if (inputs.count(a.name)) {
        error(a.name_span, "input '" + a.name + "' of custom is given twice", "each input once");
        return;
      }
      ExtraKind kind{};
      DType type{};
      if (!operand_kind(*a.value, "custom input '" + a.name + "'", kind, type)) return;
      int index = add_extra(a.name, kind, type, false, a.name_span, true);
      if (index < 0) return;
      inputs[a.name] = index;
      input_spans[a.name] = a.name_span;
    }
    // Offsets map into the source only when the string has no escapes.
    const std::string_view raw = diags_.file().slice(text.span);
    const bool exact = raw.size() == text.text.size() + 2;
    std::optional<dsl::Formula> f = dsl::parse_formula(text.text, text.span.begin + 1, exact, text.span, diags_);
    if (!f) return;
    std::map<std::string, bool> used;
    std::optional<EpiExpr> expr = formula(*f, inputs, used);
    if (!expr) return;
    for (const auto& [name, index] : inputs)
      if (!used[name]) {
        error(input_spans[name], "input '" + name + "' is declared but the expression does not use it",
              "inputs the expression reads", "remove it, or use it in the expression");
        return;
      }
    if (!expr->uses(EpiExpr::Op::x) && !expr->uses(EpiExpr::Op::acc) && !expr->uses(EpiExpr::Op::c) &&
        !expr->uses_extras()) {
      error(text.span, "the expression is a constant", "an expression of x, acc, c or the declared inputs");
      return;
    }
    push_expr(e, "custom", std::move(*expr));
  }

  std::optional<EpiExpr> formula(const dsl::Formula& f, const std::map<std::string, int>& inputs,
                                 std::map<std::string, bool>& used) {
    using K = dsl::Formula::Kind;
    switch (f.kind) {
      case K::number: return leaf(EpiExpr::Op::constant, f.value);
      case K::name: {
        if (f.name == "x") return leaf(EpiExpr::Op::x);
        if (f.name == "acc") return leaf(EpiExpr::Op::acc);
        if (f.name == "c") return leaf(EpiExpr::Op::c);
        auto it = inputs.find(f.name);
        if (it != inputs.end()) {
          used[f.name] = true;
          return leaf(EpiExpr::Op::extra, 0, it->second);
        }
        if (parse_enum<EpiFn>(f.name)) {
          error(f.span, "'" + f.name + "' is a function; call it as " + f.name + "(...)", f.name + "(x)");
          return std::nullopt;
        }
        std::vector<std::string> names = {"x", "acc", "c"};
        for (const auto& [n, i] : inputs) names.push_back(n);
        std::string guess = closest_name(f.name, names);
        error(f.span, "unknown name '" + f.name + "' in the expression", join_names(names),
              guess.empty() ? "declare it as an input: custom(\"...\", " + f.name + " = col)"
                            : "did you mean '" + guess + "'?");
        return std::nullopt;
      }
      case K::call: {
        auto fn = parse_enum<EpiFn>(f.name);
        if (!fn) {
          std::vector<std::string> names = all_names<EpiFn>();
          std::string guess = closest_name(f.name, names);
          error(f.span, "unknown function '" + f.name + "'", join_names(names),
                guess.empty() ? "" : "did you mean '" + guess + "'?");
          return std::nullopt;
        }
        auto [lo, hi] = epilogue_fn_arity(*fn);
        const int n = static_cast<int>(f.args.size());
        if (n < lo || n > hi) {
          error(f.span,
                "'" + f.name + "' takes " + (lo == hi ? std::to_string(lo) : std::to_string(lo) + " or " + std::to_string(hi)) +
                    " argument" + (hi == 1 ? "" : "s") + ", got " + std::to_string(n));
          return std::nullopt;
        }
        std::vector<EpiExpr> args;
        for (const dsl::Formula& a : f.args) {
          std::optional<EpiExpr> x = formula(a, inputs, used);
          if (!x) return std::nullopt;
          args.push_back(std::move(*x));
        }
        return call(*fn, std::move(args));
      }
      case K::neg: {
        std::optional<EpiExpr> x = formula(f.args[0], inputs, used);
        if (!x) return std::nullopt;
        EpiExpr out;
        out.op = EpiExpr::Op::neg;
        out.args.push_back(std::move(*x));
        return out;
      }
      case K::add:
      case K::sub:
      case K::mul:
      case K::div: {
        std::optional<EpiExpr> lhs = formula(f.args[0], inputs, used);
        if (!lhs) return std::nullopt;
        std::optional<EpiExpr> rhs = formula(f.args[1], inputs, used);
        if (!rhs) return std::nullopt;
        EpiExpr::Op op = f.kind == K::add ? EpiExpr::Op::add : f.kind == K::sub ? EpiExpr::Op::sub
                         : f.kind == K::mul ? EpiExpr::Op::mul : EpiExpr::Op::div;
        return binary(op, std::move(*lhs), std::move(*rhs));
      }
    }
    return std::nullopt;
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
    if (n == "scale" || n == "add" || n == "sub" || n == "mul" || n == "div" || n == "min" || n == "max")
      return arithmetic_step(e);
    if (n == "per_row_scale") return extra_operand_step(e, ExtraKind::row, EpiExpr::Op::mul);
    if (n == "per_col_scale" || n == "per_channel_scale") return extra_operand_step(e, ExtraKind::col, EpiExpr::Op::mul);
    if (n == "residual" || n == "aux_load") return extra_operand_step(e, ExtraKind::matrix, EpiExpr::Op::add);
    if (n == "aux_store") return aux_store_step(e);
    if (n == "row_sum" || n == "row_max" || n == "col_sum" || n == "col_max") return reduction_step(e);
    if (n == "custom") return custom_step(e);
    EpilogueStep step;
    step.span = e.span;
    if (n == "bias") {
      auto args = step_args(e, 1, 2, "bias(col) or bias(col, f32)");
      if (args.empty()) return;
      step.kind = EpilogueStep::Kind::bias;
      if (!enum_value(*args[0], "bias kind", step.bias)) return;
      if (args.size() == 2 && !enum_value(*args[1], "bias element type", step.bias_type)) return;
      if (k_.has_bias()) {
        error(e.span, "only one bias per kernel", "one bias(col) or bias(row)", "add(col) or add(row) for a second vector");
        return;
      }
      k_.epilogue.push_back(step);
      return;
    }
    auto act = parse_enum<Activation>(n == "clip" ? "clamp" : n);
    if (!act) {
      std::string guess = closest_name(n, step_names());
      error(name_span, "unknown epilogue step '" + n + "'", join_names(step_names()),
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
    } else if (*act == Activation::elu) {
      auto args = step_args(e, 0, 1, "elu or elu(1.0)");
      if (args.empty()) return;
      step.p0 = 1.0;
      if (args[0] && !real_value(*args[0], "elu alpha", step.p0)) return;
    } else if (*act == Activation::softplus) {
      auto args = step_args(e, 0, 2, "softplus, softplus(beta) or softplus(beta, threshold), e.g. softplus(1, 20)");
      if (args.empty()) return;
      step.p0 = 1.0;
      step.p1 = 20.0;
      if (args[0] && !real_value(*args[0], "softplus beta", step.p0)) return;
      if (args.size() == 2 && !real_value(*args[1], "softplus threshold", step.p1)) return;
      if (step.p0 <= 0) {
        error(args[0]->span, "softplus beta must be positive", "softplus(1.0)");
        return;
      }
    } else if (*act == Activation::clamp) {
      auto args = step_args(e, 2, 2, n + "(lower, upper) such as " + n + "(0, 6)");
      if (args.empty()) return;
      if (!real_value(*args[0], n + " lower bound", step.p0) || !real_value(*args[1], n + " upper bound", step.p1))
        return;
      if (step.p0 > step.p1) {
        error(e.span, n + " lower bound is above the upper bound", n + "(lower, upper) with lower <= upper");
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
    fix(k_.alpha); fix(k_.beta); fix(k_.operand_swap);
    fix(k_.gemv_levers.access); fix(k_.gemv_levers.threads_per_row); fix(k_.gemv_levers.threads);
    fix(k_.row_levers.access); fix(k_.row_levers.threads); fix(k_.row_levers.items); fix(k_.row_levers.splits);
    fix(k_.attention_levers.block_q); fix(k_.attention_levers.block_k); fix(k_.attention_levers.scores);
    for (Extent* e : {&k_.m, &k_.n, &k_.k, &k_.batch})
      if (e->span == Span{}) e->span = decl_.op.name_span;
  }

  const dsl::KernelDecl& decl_;
  Diagnostics& diags_;
  GemmKernel k_;
};

// CUTLASS 4.2 cannot compile an SM90 implicit-GEMM convolution in one translation unit with any GEMM
// kernel (2.x or 3.x): the GEMM headers bring the 2.x GemmUniversal partial specialization, which also
// matches the convolution kernel's GemmUniversal (its ConvProblemShape is no cute tuple), and nvcc stops
// at "more than one partial specialization matches". A program is one translation unit. Found by the
// first GPU campaign (level3/006: sm90a convs beside a linear); an sm80 conv beside an sm90a conv builds.
void check_sm90_conv_alone(const Program& p, Diagnostics& diags) {
  const GemmKernel* gemm = nullptr;
  for (const GemmKernel& k : p.kernels)
    if (!k.is_conv() && !k.is_rows() && !k.is_attention() && !gemm) gemm = &k;
  if (!gemm) return;
  for (const GemmKernel& k : p.kernels) {
    // ucutlass's persistent kernel (an explicit cooperative or pingpong schedule) does not instantiate
    // CUTLASS's SM90 conv kernel, so it compiles beside a GEMM (nvcc-checked, conv_space.h).
    if (!k.is_conv() || k.arch.value != Arch::sm90a) continue;
    if (!k.schedule.is_auto && is_persistent_conv_schedule(k.schedule.value)) continue;
    diags.error(k.name_span,
                "kernel '" + k.name + "' is an sm90a convolution, which CUTLASS 4.2 cannot compile in one program with "
                    "the GEMM '" + gemm->name + "' (its GEMM headers make the SM90 convolution kernel ambiguous)",
                "for fprop .with_schedule(pingpong) or cooperative (ucutlass's persistent kernel, which compiles beside "
                "a GEMM), an sm90a convolution in a program without GEMM kernels, or .with_arch(sm80)");
  }
}

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
  check_sm90_conv_alone(p, diags);
  if (ast.kernels.empty() && !diags.has_errors())
    diags.error(Span{0, 0}, "no kernel declarations", "kernel NAME = gemm(m = ..., n = ..., k = ...).with_...(...)");
  return p;
}

}  // namespace ucutlass::ir
