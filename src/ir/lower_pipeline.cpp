#include "ir/lower_pipeline.h"

#include <map>
#include <optional>
#include <set>

#include "support/did_you_mean.h"

namespace ucutlass::ir {

namespace {

using dsl::Arg;
using dsl::Call;
using dsl::Expr;

// Tensor names become fields of the emitted params structs (C and C++).
bool is_cpp_keyword(const std::string& name) {
  static const std::set<std::string> keywords = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
      "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
      "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete",
      "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
      "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
      "requires", "restrict", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast",
      "struct", "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid",
      "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq"};
  return keywords.count(name) > 0;
}

constexpr const char* kForm = "pipeline NAME = inputs(x, w, ...).KERNEL(a = x, b = w, d = h).outputs(h)";

class PipelineLowering {
 public:
  PipelineLowering(const dsl::PipelineDecl& decl, const Program& program, Diagnostics& diags)
      : decl_(decl), program_(program), diags_(diags) {}

  // False when the declaration had errors (then `out` is incomplete).
  bool run(Pipeline& out) {
    p_.name = decl_.name;
    p_.span = decl_.span;
    p_.name_span = decl_.name_span;
    const std::vector<Call>& calls = decl_.calls;
    if (calls.front().name != "inputs") {
      error(calls.front().name_span, "a pipeline starts with inputs(...), found '" + calls.front().name + "'", kForm);
      return false;
    }
    lower_inputs(calls.front());
    if (calls.size() < 2 || calls.back().name != "outputs") {
      error(calls.back().span, "a pipeline ends with outputs(...)", kForm,
            "list the tensors the caller gets back: .outputs(y)");
      return false;
    }
    if (calls.size() == 2) {
      error(calls.back().name_span, "pipeline '" + p_.name + "' runs no kernel", kForm);
      return false;
    }
    for (size_t i = 1; i + 1 < calls.size(); ++i) lower_step(calls[i]);
    if (failed_) return false;
    lower_outputs(calls.back());
    if (failed_) return false;
    check_cycles_and_order();
    if (!failed_) check_unused();
    if (failed_) return false;
    out = std::move(p_);
    return true;
  }

 private:
  void error(Span s, std::string msg, std::string legal = {}, std::string hint = {}) {
    diags_.error(s, std::move(msg), std::move(legal), std::move(hint));
    failed_ = true;
  }
  int line_of(Span s) const { return diags_.file().line_col(s.begin).line; }

  // A tensor name: a plain identifier.
  bool tensor_name(const Expr& e, const std::string& where, std::string& out) {
    if (e.kind != Expr::Kind::name) {
      error(e.span, where + " takes tensor names, not '" + dsl::expr_to_string(e) + "'", "a name such as x or h");
      return false;
    }
    if (is_cpp_keyword(e.text)) {
      error(e.span, "tensor name '" + e.text + "' is a C++ keyword", "a name that is not a C or C++ keyword",
            "call it " + e.text + "_");
      return false;
    }
    out = e.text;
    return true;
  }

  void lower_inputs(const Call& c) {
    for (const Arg& a : c.args) {
      if (!a.name.empty()) {
        error(a.span, "inputs(...) takes tensor names, not 'name = value'", "inputs(x, w1, b1)");
        continue;
      }
      std::string name;
      if (!tensor_name(*a.value, "inputs(...)", name)) continue;
      if (index_.count(name)) {
        error(a.value->span, "input '" + name + "' is listed twice", "each input once");
        continue;
      }
      index_[name] = static_cast<int>(p_.tensors.size());
      p_.inputs.push_back(static_cast<int>(p_.tensors.size()));
      p_.tensors.push_back(PipelineTensor{name, a.value->span, PipelineTensor::Role::input, -1});
    }
  }

  // The operands a kernel's call may bind, in the order the host entry lists them.
  static std::vector<std::string> operand_names(const GemmKernel& k) {
    std::vector<std::string> out = {"a", "b"};
    if (k.has_source()) out.push_back("c");
    out.push_back("d");
    if (k.has_bias()) out.push_back("bias");
    for (const EpilogueExtra& x : k.extras) out.push_back(x.name);
    return out;
  }

  std::optional<PipelineBinding> operand_of(const GemmKernel& k, const std::string& name) {
    PipelineBinding b;
    using O = PipelineBinding::Operand;
    if (name == "a") b.operand = O::a;
    else if (name == "b") b.operand = O::b;
    else if (name == "c" && k.has_source()) b.operand = O::c;
    else if (name == "d") {
      b.operand = O::d;
      b.writes = true;
    } else if (name == "bias" && k.has_bias()) b.operand = O::bias;
    else {
      for (size_t i = 0; i < k.extras.size(); ++i)
        if (k.extras[i].name == name) {
          b.operand = O::extra;
          b.extra = static_cast<int>(i);
          b.writes = k.extras[i].is_output;
          return b;
        }
      return std::nullopt;
    }
    return b;
  }

  void lower_step(const Call& c) {
    const int step = static_cast<int>(p_.steps.size());
    int kernel = -1;
    std::vector<std::string> kernel_names;
    for (size_t i = 0; i < program_.kernels.size(); ++i) {
      kernel_names.push_back(program_.kernels[i].name);
      if (program_.kernels[i].name == c.name) kernel = static_cast<int>(i);
    }
    if (c.name == "inputs" || c.name == "outputs") {
      error(c.name_span, c.name + "(...) must be the " + (c.name == "inputs" ? "first" : "last") +
                             " call of a pipeline", kForm);
      return;
    }
    if (kernel < 0) {
      const std::string close = closest_name(c.name, kernel_names);
      error(c.name_span, "unknown kernel '" + c.name + "' in pipeline '" + p_.name + "'",
            "a kernel declared in this program: " + join_names(kernel_names),
            close.empty() ? "" : "did you mean '" + close + "'?");
      return;
    }
    const GemmKernel& k = program_.kernels[kernel];
    if (k.is_conv()) {
      error(c.name_span, "kernel '" + k.name + "' is a convolution; pipelines run GEMM kernels only",
            "a gemm(...) kernel");
      return;
    }
    if (k.is_grouped()) {
      error(c.name_span, "kernel '" + k.name + "' is a grouped GEMM; pipelines run single-problem GEMM kernels only",
            "a gemm(...) kernel without groups");
      return;
    }
    // The pipeline's GEMM steps are checked on the GPU; a GEMV step (its x and y as [K, 1] and [M, 1]
    // intermediates) is not yet.
    if (k.is_rows() || k.is_attention()) {
      error(c.name_span,
            "kernel '" + k.name + "' is " +
                (k.is_rows() ? "a row kernel (" + std::string(name_of(k.rows->op)) + ")" : std::string("an attention kernel")) +
                "; pipelines run GEMM kernels",
            "a gemm(...) kernel");
      return;
    }
    if (k.is_gemv()) {
      error(c.name_span, "kernel '" + k.name + "' is a gemv; pipelines do not run gemv kernels yet",
            "a gemm(...) kernel", "gemm(m = M, n = 1, k = K) runs the same product as a GEMM step");
      return;
    }
    for (const Extent* e : {&k.m, &k.n, &k.k})
      if (e->is_dynamic()) {
        const char* which = e == &k.m ? "m" : e == &k.n ? "n" : "k";
        error(c.name_span, "kernel '" + k.name + "' has a dynamic " + which + "; a pipeline needs fixed extents",
              "gemm(m = ..., n = ..., k = ...) with integers",
              "give " + std::string(which) + " a value in kernel " + k.name);
        return;
      }
    PipelineStep s;
    s.kernel = kernel;
    s.span = c.span;
    std::map<std::string, Span> bound;
    const std::vector<std::string> legal = operand_names(k);
    for (const Arg& a : c.args) {
      if (a.name.empty()) {
        error(a.span, "bind an operand by name, as '" + legal.front() + " = TENSOR'",
              "operands of " + k.name + ": " + join_names(legal));
        continue;
      }
      std::optional<PipelineBinding> b = operand_of(k, a.name);
      if (!b) {
        const std::string close = closest_name(a.name, legal);
        error(a.name_span, "kernel '" + k.name + "' has no operand '" + a.name + "'",
              "operands of " + k.name + ": " + join_names(legal),
              close.empty() ? "" : "did you mean '" + close + "'?");
        continue;
      }
      if (!bound.emplace(a.name, a.name_span).second) {
        error(a.name_span, "operand '" + a.name + "' of " + k.name + " is bound twice", "each operand once");
        continue;
      }
      std::string name;
      if (!tensor_name(*a.value, "an operand", name)) continue;
      b->span = a.span;
      b->tensor = b->writes ? write_tensor(name, *a.value, step) : read_tensor(name);
      if (b->tensor >= 0) s.bindings.push_back(*b);
    }
    for (const std::string& name : legal)
      if (!bound.count(name))
        error(c.span, "kernel '" + k.name + "' needs its operand '" + name + "' bound", "operands of " + k.name +
              ": " + join_names(legal), "add " + name + " = TENSOR to the call");
    p_.steps.push_back(std::move(s));
  }

  // Reads are resolved after all writes are known (check_cycles_and_order);
  // here they get an index, creating the tensor if nothing has named it yet.
  int read_tensor(const std::string& name) {
    auto it = index_.find(name);
    if (it != index_.end()) return it->second;
    index_[name] = static_cast<int>(p_.tensors.size());
    p_.tensors.push_back(PipelineTensor{name, {}, PipelineTensor::Role::intermediate, -1});
    return index_[name];
  }

  int write_tensor(const std::string& name, const Expr& at, int step) {
    auto it = index_.find(name);
    if (it != index_.end()) {
      PipelineTensor& t = p_.tensors[it->second];
      if (t.role == PipelineTensor::Role::input) {
        error(at.span, "step " + std::to_string(step + 1) + " writes '" + name + "', an input of the pipeline",
              "inputs are read only", "write a new tensor, e.g. " + name + "_out");
        return -1;
      }
      if (t.producer >= 0) {
        error(at.span,
              "tensor '" + name + "' is written twice (first by step " + std::to_string(t.producer + 1) + ", " +
                  program_.kernels[p_.steps[t.producer].kernel].name + ", at line " + std::to_string(line_of(t.span)) +
                  ")",
              "each tensor is written by one step", "give this step's output a new name");
        return -1;
      }
      t.producer = step;
      t.span = at.span;
      return it->second;
    }
    index_[name] = static_cast<int>(p_.tensors.size());
    p_.tensors.push_back(PipelineTensor{name, at.span, PipelineTensor::Role::intermediate, step});
    return index_[name];
  }

  void lower_outputs(const Call& c) {
    std::set<int> listed;
    for (const Arg& a : c.args) {
      std::string name;
      if (!a.name.empty()) {
        error(a.span, "outputs(...) takes tensor names, not 'name = value'", "outputs(y)");
        continue;
      }
      if (!tensor_name(*a.value, "outputs(...)", name)) continue;
      auto it = index_.find(name);
      if (it == index_.end() || (p_.tensors[it->second].role != PipelineTensor::Role::input &&
                                 p_.tensors[it->second].producer < 0)) {
        error(a.value->span, "output '" + name + "' is not written by any step of pipeline '" + p_.name + "'",
              "a tensor bound to some step's d (or aux_store)");
        continue;
      }
      if (p_.tensors[it->second].role == PipelineTensor::Role::input) {
        error(a.value->span, "'" + name + "' is an input; an output must be written by a step",
              "a tensor bound to some step's d (or aux_store)");
        continue;
      }
      if (!listed.insert(it->second).second) {
        error(a.value->span, "output '" + name + "' is listed twice", "each output once");
        continue;
      }
      p_.tensors[it->second].role = PipelineTensor::Role::output;
      p_.outputs.push_back(it->second);
    }
    if (c.args.empty() && !failed_) error(c.span, "outputs(...) lists no tensor", "outputs(y)");
  }

  // Step i depends on step j when it reads a tensor j writes. Reading what a
  // later step writes is a cycle when that step depends on this one (directly
  // or not), otherwise a matter of order; reading what nothing writes is an
  // unknown tensor.
  void check_cycles_and_order() {
    const size_t n = p_.steps.size();
    std::vector<std::set<int>> deps(n);
    for (size_t i = 0; i < n; ++i)
      for (const PipelineBinding& b : p_.steps[i].bindings)
        if (!b.writes && p_.tensors[b.tensor].producer >= 0) deps[i].insert(p_.tensors[b.tensor].producer);
    auto reaches = [&](int from, int to) {  // from depends on `to`, transitively
      std::vector<int> stack = {from};
      std::set<int> seen;
      while (!stack.empty()) {
        int s = stack.back();
        stack.pop_back();
        for (int d : deps[s]) {
          if (d == to) return true;
          if (seen.insert(d).second) stack.push_back(d);
        }
      }
      return false;
    };
    for (size_t i = 0; i < n; ++i) {
      const GemmKernel& k = program_.kernels[p_.steps[i].kernel];
      for (const PipelineBinding& b : p_.steps[i].bindings) {
        if (b.writes) continue;
        const PipelineTensor& t = p_.tensors[b.tensor];
        const std::string who = "step " + std::to_string(i + 1) + " (" + k.name + ")";
        if (t.role == PipelineTensor::Role::input) continue;
        if (t.producer < 0) {
          std::vector<std::string> known;
          for (const PipelineTensor& o : p_.tensors)
            if (o.role == PipelineTensor::Role::input || o.producer >= 0) known.push_back(o.name);
          const std::string close = closest_name(t.name, known);
          error(b.span, "unknown tensor '" + t.name + "': not an input and not written by any step",
                "an input listed in inputs(...) or a tensor an earlier step writes",
                close.empty() ? "add it to inputs(...)" : "did you mean '" + close + "'?");
          continue;
        }
        if (t.producer < static_cast<int>(i)) continue;
        const std::string writer = "step " + std::to_string(t.producer + 1) + " (" +
                                   program_.kernels[p_.steps[t.producer].kernel].name + ")";
        if (t.producer == static_cast<int>(i))
          error(b.span, "cycle: " + who + " reads '" + t.name + "', which it writes itself",
                "a step reads inputs and tensors earlier steps write", "read a different tensor");
        else if (reaches(t.producer, static_cast<int>(i)))
          error(b.span, "cycle: " + who + " reads '" + t.name + "', written by " + writer +
                            ", which depends on " + who,
                "steps whose data flow has no cycle");
        else
          error(b.span, "tensor '" + t.name + "' is read by " + who + " before " + writer + " writes it",
                "a step reads inputs and tensors earlier steps write",
                "move " + writer + " before " + who);
      }
    }
  }

  void check_unused() {
    std::set<int> read;
    for (const PipelineStep& s : p_.steps)
      for (const PipelineBinding& b : s.bindings)
        if (!b.writes) read.insert(b.tensor);
    for (size_t i = 0; i < p_.tensors.size(); ++i) {
      const PipelineTensor& t = p_.tensors[i];
      if (read.count(static_cast<int>(i))) continue;
      if (t.role == PipelineTensor::Role::input)
        error(t.span, "input '" + t.name + "' is never read", "inputs that some step binds",
              "bind it to an operand or remove it from inputs(...)");
      else if (t.role == PipelineTensor::Role::intermediate && t.producer >= 0)
        error(t.span,
              "tensor '" + t.name + "' is written by step " + std::to_string(t.producer + 1) + " (" +
                  program_.kernels[p_.steps[t.producer].kernel].name + ") but never read",
              "every written tensor is read by a later step or listed in outputs(...)",
              "add it to outputs(...) or read it in a later step");
    }
  }

  const dsl::PipelineDecl& decl_;
  const Program& program_;
  Diagnostics& diags_;
  Pipeline p_;
  std::map<std::string, int> index_;
  bool failed_ = false;
};

}  // namespace

void lower_pipelines(const dsl::Program& ast, Program& p, Diagnostics& diags) {
  std::map<std::string, Span> names;
  for (const GemmKernel& k : p.kernels) names.emplace(k.name, k.name_span);
  for (const dsl::PipelineDecl& decl : ast.pipelines) {
    auto [it, fresh] = names.emplace(decl.name, decl.name_span);
    if (!fresh) {
      diags.error(decl.name_span,
                  "'" + decl.name + "' is already declared (line " +
                      std::to_string(diags.file().line_col(it->second.begin).line) + ")",
                  "a name no other kernel or pipeline has (its C entry is ucutlass_NAME_run)");
      continue;
    }
    Pipeline out;
    if (PipelineLowering(decl, p, diags).run(out)) p.pipelines.push_back(std::move(out));
  }
}

}  // namespace ucutlass::ir
