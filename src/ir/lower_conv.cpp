#include "ir/lower_conv.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "support/did_you_mean.h"

namespace ucutlass::ir {

namespace {

using dsl::Arg;
using dsl::Expr;

// Extents beyond 2^31 - 1 overflow CUTLASS's int problem sizes.
constexpr int64_t kMaxExtent = 2147483647;

// The argument names of each rank, in the order the form shows them.
std::vector<std::string> extent_names(int dims) {
  if (dims == 1) return {"n", "w", "c", "k", "s"};
  if (dims == 2) return {"n", "h", "w", "c", "k", "r", "s"};
  return {"n", "d", "h", "w", "c", "k", "t", "r", "s"};
}

const std::vector<std::string>& window_names() {
  static const std::vector<std::string> names = {"pad", "stride", "dilation", "groups"};
  return names;
}

class ConvLowering {
 public:
  ConvLowering(const dsl::Call& op, ConvProblem& out, Diagnostics& diags) : op_(op), p_(out), diags_(diags) {}

  bool run() {
    transposed_ = op_.name.rfind("conv_transpose", 0) == 0;
    p_.dims = op_.name[op_.name.size() - 2] - '0';
    const std::string form = transposed_ ? conv_transpose_form(p_.dims) : conv_operation_form(p_.dims);
    std::vector<std::string> allowed = extent_names(p_.dims);
    allowed.insert(allowed.end(), window_names().begin(), window_names().end());
    allowed.push_back(transposed_ ? "output_padding" : "mode");
    // Unused spatial dimensions are 1 wide with a unit window.
    for (int i = 0; i < p_.first_dim(); ++i) {
      p_.input[i] = {1, op_.name_span};
      p_.filter[i] = {1, op_.name_span};
    }
    bool mode_given = false;
    std::map<std::string, bool> seen;
    for (size_t i = 0; i < op_.args.size(); ++i) {
      const Arg& a = op_.args[i];
      if (transposed_ && a.name.empty()) {
        diags_.error(a.span, op_.name + " takes no pass: it is the dgrad of the forward convolution", form);
        ok_ = false;
        continue;
      }
      if (!transposed_ && (a.name.empty() || a.name == "mode")) {
        if (mode_given || (a.name.empty() && i != 0)) {
          diags_.error(a.span, "only the pass (fprop, dgrad or wgrad) is positional, and it comes first", form);
          ok_ = false;
          continue;
        }
        mode_given = true;
        mode(*a.value);
        continue;
      }
      if (std::find(allowed.begin(), allowed.end(), a.name) == allowed.end()) {
        std::string guess = closest_name(a.name, allowed);
        diags_.error(a.name_span, "unknown argument '" + a.name + "' of " + op_.name, join_names(allowed),
                     guess.empty() ? "" : "did you mean '" + guess + "'?");
        ok_ = false;
        continue;
      }
      if (seen[a.name]) {
        diags_.error(a.name_span, "argument '" + a.name + "' of " + op_.name + " is given twice", "each argument once");
        ok_ = false;
        continue;
      }
      seen[a.name] = true;
      argument(a.name, *a.value);
    }
    if (!mode_given && !transposed_) {
      diags_.error(op_.span, op_.name + " needs its pass first: fprop, dgrad or wgrad", form);
      ok_ = false;
    }
    for (const std::string& n : extent_names(p_.dims))
      if (!seen[n]) {
        diags_.error(op_.span, op_.name + " needs '" + n + "'", form);
        ok_ = false;
      }
    if (ok_ && transposed_) to_forward_dgrad();
    return ok_;
  }

 private:
  // nn.ConvTranspose(c -> k) on an input of h x w is the dgrad of the forward conv(k -> c) whose input is
  // the transposed conv's output, (in - 1) stride - 2 pad + dilation (f - 1) + output_padding + 1, and
  // whose output is the transposed conv's input. The program states the transposed conv; the IR holds
  // the forward problem, like every conv.
  void to_forward_dgrad() {
    p_.mode = ConvMode::dgrad;
    p_.mode_span = op_.name_span;
    std::swap(p_.c, p_.k);
    for (int i = p_.first_dim(); i < 3; ++i) {
      ConvValue& in = p_.input[i];
      const int64_t stride = p_.stride.value[i], extra = output_padding_.value[i];
      if (in.is_dynamic()) {
        diags_.error(in.span, op_.name + " " + input_dim_name(i) + " must be fixed: it decides the output size",
                     "an integer >= 1", "only n may be dynamic in a transposed convolution");
        ok_ = false;
        continue;
      }
      if (extra >= stride) {
        diags_.error(output_padding_.span, "output_padding " + std::to_string(extra) + " along " + input_dim_name(i) +
                                               " must be smaller than the stride " + std::to_string(stride),
                     "0 <= output_padding < stride");
        ok_ = false;
        return;  // one message for the one setting
      }
      const int64_t out = (in.value - 1) * stride - 2 * p_.pad.value[i] +
                          p_.dilation.value[i] * (p_.filter[i].value - 1) + extra + 1;
      if (out < 1) {
        diags_.error(in.span, op_.name + " has no output along " + input_dim_name(i) + ": (" +
                                  std::to_string(in.value) + " - 1) x " + std::to_string(stride) + " - 2 x " +
                                  std::to_string(p_.pad.value[i]) + " + ... = " + std::to_string(out),
                     "less padding, or a larger input");
        ok_ = false;
        continue;
      }
      in.value = out;
    }
  }

  void mode(const Expr& e) {
    p_.mode_span = e.span;
    std::optional<ConvMode> m = e.kind == Expr::Kind::name ? parse_enum<ConvMode>(e.text) : std::nullopt;
    if (!m) {
      std::string guess = e.kind == Expr::Kind::name ? closest_name(e.text, all_names<ConvMode>()) : "";
      diags_.error(e.span, "unknown convolution pass '" + dsl::expr_to_string(e) + "'",
                   "fprop (forward), dgrad (gradient of the input, also transposed convolution), wgrad (gradient of "
                   "the filter)",
                   guess.empty() ? "" : "did you mean '" + guess + "'?");
      ok_ = false;
      return;
    }
    p_.mode = *m;
  }

  bool integer(const Expr& e, const std::string& what, int64_t lo, int64_t& out) {
    if (e.kind != Expr::Kind::integer) {
      diags_.error(e.span, what + " must be an integer, not '" + dsl::expr_to_string(e) + "'",
                   "an integer in [" + std::to_string(lo) + ", " + std::to_string(kMaxExtent) + "]");
      return ok_ = false;
    }
    if (e.int_value < lo || e.int_value > kMaxExtent) {
      diags_.error(e.span, what + " = " + std::to_string(e.int_value) + " is out of range",
                   "an integer in [" + std::to_string(lo) + ", " + std::to_string(kMaxExtent) + "]");
      return ok_ = false;
    }
    out = e.int_value;
    return true;
  }

  void argument(const std::string& name, const Expr& e) {
    const std::string what = op_.name + " " + name;
    if (name == "pad" || name == "stride" || name == "dilation" || name == "output_padding") return window(name, e);
    if (name == "groups") {
      p_.groups.span = e.span;
      integer(e, what, 1, p_.groups.value);
      return;
    }
    ConvValue* v = name == "n" ? &p_.n : name == "c" ? &p_.c : name == "k" ? &p_.k : nullptr;
    for (int i = 0; i < 3 && v == nullptr; ++i) {
      if (name == input_dim_name(i)) v = &p_.input[i];
      if (name == filter_dim_name(i)) v = &p_.filter[i];
    }
    v->span = e.span;
    const bool may_be_dynamic = v == &p_.n || v == &p_.input[0] || v == &p_.input[1] || v == &p_.input[2];
    if (e.kind == Expr::Kind::name && e.text == "dynamic") {
      if (may_be_dynamic) {
        v->value = 0;
        return;
      }
      diags_.error(e.span, what + " must be fixed: channels and filter sizes decide alignment and legality",
                   "an integer >= 1", "only n and the input's spatial extents may be dynamic");
      ok_ = false;
      return;
    }
    integer(e, what, 1, v->value);
  }

  // pad = 1, or pad = (1, 2) with one value per spatial dimension.
  void window(const std::string& name, const Expr& e) {
    ConvWindow& w = name == "pad" ? p_.pad : name == "stride" ? p_.stride : name == "dilation" ? p_.dilation
                                                                                               : output_padding_;
    const int64_t lo = name == "pad" || name == "output_padding" ? 0 : 1;
    w.span = e.span;
    const std::string form = name + " = N (every spatial dimension) or " + name + " = " +
                             (p_.dims == 1 ? "N" : std::string("(") + (p_.dims == 2 ? "N, N" : "N, N, N") + ")");
    if (e.kind == Expr::Kind::tuple) {
      if (static_cast<int>(e.items.size()) != p_.dims) {
        diags_.error(e.span, name + " has " + std::to_string(e.items.size()) + " values but " + op_.name + " has " +
                                 std::to_string(p_.dims) + " spatial dimension" + (p_.dims == 1 ? "" : "s"),
                     form);
        ok_ = false;
        return;
      }
      for (int i = 0; i < p_.dims; ++i) integer(*e.items[i], op_.name + " " + name, lo, w.value[p_.first_dim() + i]);
      return;
    }
    if (e.kind != Expr::Kind::integer) {
      diags_.error(e.span, name + " must be an integer or a tuple, not '" + dsl::expr_to_string(e) + "'", form);
      ok_ = false;
      return;
    }
    int64_t v = 0;
    if (!integer(e, op_.name + " " + name, lo, v)) return;
    for (int i = p_.first_dim(); i < 3; ++i) w.value[i] = v;
  }

  const dsl::Call& op_;
  ConvProblem& p_;
  Diagnostics& diags_;
  bool ok_ = true;
  bool transposed_ = false;
  ConvWindow output_padding_{{0, 0, 0}, {}};
};

}  // namespace

bool is_conv_operation(const std::string& name) {
  return name == "conv1d" || name == "conv2d" || name == "conv3d" || name == "conv_transpose1d" ||
         name == "conv_transpose2d" || name == "conv_transpose3d";
}

std::string conv_transpose_form(int dims) {
  std::string s = "conv_transpose" + std::to_string(dims) + "d(";
  const std::vector<std::string> names = extent_names(dims);
  for (size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + names[i] + " = ...";
  return s + ", pad = 0, stride = 1, dilation = 1, output_padding = 0, groups = 1)";
}

std::string conv_operation_form(int dims) {
  std::string s = "conv" + std::to_string(dims) + "d(fprop | dgrad | wgrad";
  for (const std::string& n : extent_names(dims)) s += ", " + n + " = ...";
  return s + ", pad = 0, stride = 1, dilation = 1, groups = 1)";
}

bool lower_conv_operation(const dsl::Call& op, ConvProblem& out, Diagnostics& diags) {
  return ConvLowering(op, out, diags).run();
}

}  // namespace ucutlass::ir
