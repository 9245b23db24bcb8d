#include "solution/modelnew_writer.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <sstream>

#include "build/toolchain.h"
#include "compiler/frontend.h"
#include "map/dsl_writer.h"
#include "map/run_form.h"
#include "map/stacked_k.h"
#include "solution/bias_argument.h"
#include "solution/channels_last.h"
#include "solution/conv_forward.h"
#include "solution/k_stack.h"
#include "solution/param_cache.h"
#include "solution/subpixel_shuffle.h"

namespace ucutlass::solution {

namespace {

using graph::OpGraph;

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

size_t indent_of(const std::string& line) { return line.find_first_not_of(" \t"); }
bool blank(const std::string& line) { return indent_of(line) == std::string::npos || line[indent_of(line)] == '#'; }

// Index one past the indented block that starts at lines[begin] (a `def` or `class` line).
size_t block_end(const std::vector<std::string>& lines, size_t begin) {
  const size_t base = indent_of(lines[begin]);
  size_t end = begin + 1;
  for (size_t i = begin + 1; i < lines.size(); ++i) {
    if (blank(lines[i])) continue;
    if (indent_of(lines[i]) <= base) break;
    end = i + 1;
  }
  return end;
}

bool starts_with_word(const std::string& line, const std::string& word) {
  return line.rfind(word, 0) == 0 && (line.size() == word.size() || !(std::isalnum(line[word.size()]) || line[word.size()] == '_'));
}

// The problem's module code minus get_inputs/get_init_inputs, and its Model
// class renamed, forward removed. Returns false when there is no Model.
bool split_problem(const std::string& source, std::string* module_code, std::string* model_class, std::string* err) {
  std::vector<std::string> lines = split_lines(source);
  std::ostringstream mod, cls;
  bool found = false;
  for (size_t i = 0; i < lines.size();) {
    const std::string& line = lines[i];
    if (starts_with_word(line, "def get_inputs") || starts_with_word(line, "def get_init_inputs")) {
      i = block_end(lines, i);
      continue;
    }
    if (starts_with_word(line, "class Model")) {
      found = true;
      const size_t end = block_end(lines, i);
      std::string head = line;
      head.replace(0, std::string("class Model").size(), "class ModelNew");
      cls << head << "\n";
      for (size_t j = i + 1; j < end;) {
        std::string body = lines[j];
        const size_t ind = indent_of(body);
        if (ind != std::string::npos && body.compare(ind, 12, "def forward(") == 0) {
          j = block_end(lines, j);
          continue;
        }
        for (size_t p = body.find("super(Model,"); p != std::string::npos; p = body.find("super(Model,", p))
          body.replace(p, 12, "super(ModelNew,");
        cls << body << "\n";
        ++j;
      }
      i = end;
      continue;
    }
    mod << line << "\n";
    ++i;
  }
  if (!found) {
    *err = "the problem source has no `class Model`";
    return false;
  }
  *module_code = mod.str();
  *model_class = cls.str();
  return true;
}

std::string var(const OpGraph& g, int t) { return g.tensors[t].id; }

// Whether a module path ("linear.weight", "layers.0.bias") reads as Python attributes: every part an
// identifier and no keyword ("layers.0" is not one; get_parameter walks it).
bool attribute_path(const std::string& name) {
  static const std::set<std::string> keywords = {
      "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
      "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda",
      "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield", "match", "case"};
  size_t from = 0;
  while (from <= name.size()) {
    const size_t end = std::min(name.find('.', from), name.size());
    const std::string part = name.substr(from, end - from);
    if (part.empty() || std::isdigit(static_cast<unsigned char>(part[0])) || keywords.count(part)) return false;
    for (char c : part)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    from = end + 1;
  }
  return true;
}

std::string python_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// A source file as a Python literal: raw triple-quoted when that is exact.
std::string python_text(const std::string& text) {
  if (text.find("'''") == std::string::npos && (text.empty() || text.back() != '\\')) return "r'''" + text + "'''";
  std::string out = "\"";
  for (char c : text) {
    if (c == '\n') out += "\\n";
    else if (c == '"' || c == '\\') out += std::string("\\") + c;
    else out += c;
  }
  return out + "\"";
}

std::string layout_fix(const map::GemmOperand& op, ir::Layout want) {
  if (!op.strided && op.natural == want) return "";
  return want == ir::Layout::row ? ".contiguous()" : ".transpose(-1, -2).contiguous().transpose(-1, -2)";
}

std::string operand_expr(const OpGraph& g, const map::GemmOperand& op, ir::Layout want, int64_t k) {
  std::string e = var(g, op.tensor);
  switch (op.view) {
    case map::OperandView::as_is: break;
    case map::OperandView::transposed: e += ".transpose(-1, -2)"; break;
    case map::OperandView::flattened: e += ".reshape(-1, " + std::to_string(k) + ")"; break;
    case map::OperandView::batch_flattened: {
      const auto& s = g.tensors[op.tensor].shape;
      e += ".reshape(-1, " + std::to_string(s[s.size() - 2]) + ", " + std::to_string(s.back()) + ")";
      break;
    }
  }
  return e + layout_fix(op, want);
}


std::string shape_list(const std::vector<int64_t>& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

}  // namespace

std::string python_value(const nlohmann::json& v, const OpGraph& g) {
  if (v.is_null()) return "None";
  if (v.is_boolean()) return v.get<bool>() ? "True" : "False";
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_number()) {
    std::ostringstream o;
    o.precision(17);
    o << v.get<double>();
    std::string s = o.str();
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s;
  }
  if (v.is_array()) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + python_value(v[i], g);
    return out + "]";
  }
  if (v.is_object() && v.contains("tensor")) {
    int t = g.find_tensor(v["tensor"].get<std::string>());
    return t >= 0 ? var(g, t) : "None";
  }
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s == "inf") return "float(\"inf\")";
    if (s == "-inf") return "float(\"-inf\")";
    if (s == "nan") return "float(\"nan\")";
    if (s == "meta" || s == "cpu" || s.rfind("cuda", 0) == 0) return "_device";
    if (s.rfind("torch.", 0) == 0) return s;  // layouts, memory formats
    if (graph::parse_dtype(s)) return "torch." + s;
    return python_string(s);
  }
  return python_string(v.dump());
}

std::string write_modelnew(const SolutionInput& in, std::string* err) {
  const OpGraph& g = *in.graph;
  std::string module_code, model_class;
  if (!split_problem(in.problem_source, &module_code, &model_class, err)) return "";

  // Which nodes each kernel covers, and where its call goes (after the last covered node).
  std::vector<int> kernel_at(g.nodes.size(), -1);
  std::vector<bool> covered(g.nodes.size(), false);
  std::vector<map::FusedEpilogue> fused;
  for (size_t i = 0; i < in.gemms.size(); ++i) {
    const map::GemmMatch& m = in.gemms[i];
    fused.push_back(map::fusable_prefix(m, in.configs[i].arch, in.configs[i].gemv, in.configs[i].fuse_steps));
    int last = m.anchor;
    covered[m.anchor] = true;
    if (m.attention)
      for (int node : m.attention->nodes) {
        covered[node] = true;
        last = std::max(last, node);
      }
    for (size_t s = 0; s < fused.back().steps; ++s) {
      covered[m.chain[s].node] = true;
      last = std::max(last, m.chain[s].node);
    }
    kernel_at[last] = static_cast<int>(i);
  }

  const std::set<int> channels_last = channels_last_tensors(g, in.gemms, fused);
  std::ostringstream f;
  const size_t row_kernels = std::count_if(in.gemms.begin(), in.gemms.end(), [](const map::GemmMatch& m) { return m.rows.has_value(); });
  const size_t attention_kernels =
      std::count_if(in.gemms.begin(), in.gemms.end(), [](const map::GemmMatch& m) { return m.attention.has_value(); });
  const size_t cutlass_kernels = in.gemms.size() - row_kernels - attention_kernels;
  f << "# ucutlass solution for " << g.problem_name << ": program " << in.hash << ", ";
  if (row_kernels == in.gemms.size()) f << row_kernels << " row kernel(s) (ucutlass's runtime).\n";
  else {
    // The kinds it has, in that order: "4 CUTLASS kernel(s), 1 attention kernel(s)."
    std::string kinds;
    for (const auto& [count, kind] : {std::pair{cutlass_kernels, "CUTLASS"}, std::pair{attention_kernels, "attention"},
                                      std::pair{row_kernels, "row"}})
      if (count > 0) kinds += (kinds.empty() ? "" : ", ") + std::to_string(count) + " " + kind + " kernel(s)";
    f << kinds << ".\n";
  }
  for (size_t i = 0; i < in.gemms.size(); ++i)
    f << "#   " << map::describe(in.gemms[i]) << "\n#     " << in.configs[i].summary()
      << (in.gemms[i].rows || in.gemms[i].attention ? std::string()
                           : ", fused " + std::to_string(fused[i].steps) + " of " + std::to_string(in.gemms[i].chain.size()) +
                                 " epilogue step(s)")
      << "\n"
      << (in.gemms[i].conv ? "#     " + conv_layout_comment(in.gemms[i], map::rounds_in_layout_copy(in.configs[i])) + "\n"
                           : "");
  f << "# The DSL program:\n";
  for (const std::string& line : split_lines(in.dsl)) f << "#   " << line << "\n";
  f << "import os\n\nimport torch\nimport torch.nn as nn\nfrom torch.utils.cpp_extension import load\n\n";
  f << "# ---- from the problem file ----\n" << module_code << "# ---- end of the problem file ----\n\n";
  f << "_UCUTLASS_HASH = \"" << in.hash << "\"\n";
  f << "_UCUTLASS_SOURCES = {\n";
  for (const codegen::EmittedFile& file : in.files) {
    if (file.name.ends_with(".json")) continue;
    f << "    " << python_string(file.name) << ": " << python_text(file.text) << ",\n";
  }
  f << "}\n";
  f << "_UCUTLASS_CUTLASS_DIR = os.environ.get(\"UCUTLASS_CUTLASS_DIR\", " << python_string(in.cutlass_dir) << ")\n";
  f << "_UCUTLASS_NVCC_FLAGS = [";
  for (const std::string& flag : in.arch_flags) f << python_string(flag) << ", ";
  // CUTLASS calls cuTensorMapEncodeTiled through the driver itself (-lcuda below) instead of looking
  // the entry point up on every TMA descriptor it encodes.
  f << "\"-std=c++17\", \"-O3\", \"-DNDEBUG\", \"-DCUTLASS_ENABLE_DIRECT_CUDA_DRIVER_CALL=1\", \"--expt-relaxed-constexpr\",\n"
       "                        \"-Xcudafe\", \"--diag_suppress=esa_on_defaulted_function_ignored\"]\n\n\n";
  f << "def _ucutlass_build():\n"
       "    base = os.environ.get(\"TORCH_EXTENSIONS_DIR\", os.path.join(os.path.expanduser(\"~\"), \".cache\", \"torch_extensions\"))\n"
       "    folder = os.path.join(base, \"ucutlass_src_\" + _UCUTLASS_HASH)\n"
       "    os.makedirs(folder, exist_ok=True)\n"
       "    sources = []\n"
       "    for name, text in _UCUTLASS_SOURCES.items():\n"
       "        path = os.path.join(folder, name)\n"
       "        # Written only when it differs: a new mtime makes ninja rebuild an extension that is up to date\n"
       "        # (a prebuilt one too), and a reader never sees a half-written file.\n"
       "        old = None\n"
       "        if os.path.exists(path):\n"
       "            with open(path) as f:\n"
       "                old = f.read()\n"
       "        if old != text:\n"
       "            tmp = path + \".\" + str(os.getpid())\n"
       "            with open(tmp, \"w\") as out:\n"
       "                out.write(text)\n"
       "            os.replace(tmp, path)\n"
       "        if not name.endswith(\".h\"):\n"
       "            sources.append(path)\n"
       "    includes = [os.path.join(_UCUTLASS_CUTLASS_DIR, \"include\"), os.path.join(_UCUTLASS_CUTLASS_DIR, \"tools\", \"util\", \"include\")]\n"
       "    return load(name=\"ucutlass_\" + _UCUTLASS_HASH, sources=sources, extra_cuda_cflags=_UCUTLASS_NVCC_FLAGS,\n"
       "                extra_include_paths=includes, extra_ldflags=[\"-lcuda\"], verbose=False)\n\n\n"
       "_ucutlass = _ucutlass_build()\n\n\n";
  // The helpers this solution's kernels need; the parameter cache last, after those that call it.
  auto any = [&](bool map::KernelConfig::*flag) {
    return std::any_of(in.configs.begin(), in.configs.end(), [&](const map::KernelConfig& c) { return c.*flag; });
  };
  if (any(&map::KernelConfig::k_stack3)) f << kStack3Helpers.substr(1) << "\n";
  auto any_form = [&](map::ConvForm form) {
    return std::any_of(in.configs.begin(), in.configs.end(), [&](const map::KernelConfig& c) { return c.form == form; });
  };
  if (any_form(map::ConvForm::subpixel)) f << kSubpixelHelpers.substr(1) << "\n";
  if (any_form(map::ConvForm::padded_channels)) f << kChannelPadHelpers.substr(1) << "\n";
  if (any_form(map::ConvForm::space_to_depth)) f << kSpaceToDepthHelpers.substr(1) << "\n";
  // Conv weights (every conv form), K-stacked and bf16-rounded operands go through the parameter cache.
  if (any(&map::KernelConfig::k_stack3) || any(&map::KernelConfig::bf16_operands) || any(&map::KernelConfig::conv))
    f << kParamCacheHelper.substr(1) << "\n";

  f << model_class;
  f << "\n    def forward(self, *inputs):\n";
  // Forward arguments, then parameters and buffers by their qualified names.
  std::string args;
  for (size_t i = 0; i < g.inputs.size(); ++i) args += (i ? ", " : "") + var(g, g.inputs[i]);
  if (g.inputs.size() == 1) args += ",";
  if (!g.inputs.empty()) f << "        " << args << " = inputs\n        _device = " << var(g, g.inputs[0]) << ".device\n";
  for (int w : g.weights) {
    const graph::Tensor& t = g.tensors[w];
    // self.linear.weight where every part of the name is an identifier: it is read on every call, and
    // get_parameter's path walk costs ~2 us more per parameter in CPython (3.0 against 1.0 us here),
    // host time an idle GPU waits for before the first kernel.
    if (t.role == graph::TensorRole::weight || t.role == graph::TensorRole::buffer) {
      if (attribute_path(t.name))
        f << "        " << var(g, w) << " = self." << t.name << "\n";
      else
        f << "        " << var(g, w) << " = self." << (t.role == graph::TensorRole::weight ? "get_parameter(" : "get_buffer(")
          << python_string(t.name) << ")\n";
    }
    else {
      *err = "tensor " + t.id + " (" + t.name + ") is a constant lifted into the graph; the writer has no way to rebuild it";
      return "";
    }
  }
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const graph::Node& n = g.nodes[i];
    if (kernel_at[i] >= 0) {
      const size_t k = kernel_at[i];
      const map::GemmMatch& m = in.gemms[k];
      const map::KernelConfig& c = in.configs[k];
      const map::FusedEpilogue& fe = fused[k];
      if (m.conv) {
        f << conv_forward_lines(g, m, fe, c.k_stack3, c.bf16_operands);
        continue;
      }
      if (m.attention) {
        // The kernel reads q, k, v as [batch, seq, head_dim] f32 and writes o in q's shape.
        const map::AttentionSpec& a = *m.attention;
        std::string call = "_ucutlass." + m.name + "(" + var(g, a.q) + ".contiguous(), " + var(g, a.k) + ".contiguous(), " +
                           var(g, a.v) + ".contiguous()";
        if (a.mask >= 0) call += ", " + var(g, a.mask) + ".reshape(" + std::to_string(a.seq_q) + ", " + std::to_string(a.seq_k) + ").contiguous()";
        f << "        # " << n.id << " " << m.anchor_op << ": attention kernel " << m.name << " (" << a.nodes.size() << " node(s))\n";
        f << "        " << var(g, m.output) << " = " << call << ")\n";
        continue;
      }
      if (m.rows) {
        // The kernel reads x as [rows, length] and writes x's shape or [rows]: the output's shape is a view.
        // Positional arguments and no reshape where the shapes agree: each costs host time (about 1 and 2 us)
        // that a 0.1 ms kernel shows.
        const map::RowSpec& r = *m.rows;
        std::string call = "_ucutlass." + m.name + "(" + var(g, r.x) + ".contiguous()";
        if (r.weight >= 0) call += ", " + var(g, r.weight) + ", " + var(g, r.bias);
        call += ")";
        const std::vector<int64_t>& out_shape = g.tensors[m.output].shape;
        const bool same = ir::row_op_keeps_shape(r.op) ? out_shape == g.tensors[r.x].shape
                                                      : out_shape == std::vector<int64_t>{r.rows};
        if (!same) call += ".reshape(" + shape_list(out_shape) + ")";
        f << "        # " << n.id << " " << m.anchor_op << ": row kernel " << m.name << "\n";
        f << "        " << var(g, m.output) << " = " << call << "\n";
        continue;
      }
      const int out_tensor = fe.steps ? m.chain[fe.steps - 1].output : m.output;
      const bool bias_left = fe.steps == 0 && !m.chain.empty() && m.chain[0].node == m.anchor;
      const std::string target = bias_left ? "_" + m.name : var(g, out_tensor);
      std::string a_expr, b_expr;
      if (c.k_stack3) {
        // The split reads either stride pattern itself (codegen/tf32_split.h): no layout copy first.
        const int64_t part_k = map::stacked_part_k(m, c), k_out = part_k != m.k ? part_k : 0;
        a_expr = stacked_operand(g, m.name, m.a, operand_expr(g, m.a, m.a.natural, m.k), true, "-1", c.bf16_operands, k_out);
        b_expr = stacked_operand(g, m.name, m.b, operand_expr(g, m.b, m.b.natural, m.k), false, "-2", c.bf16_operands, k_out);
      } else {
        a_expr = operand_expr(g, m.a, c.layout_a, m.k);
        b_expr = operand_expr(g, m.b, c.layout_b, m.k);
        if (c.bf16_operands) {
          a_expr = rounded_to_bf16(g, m.name, m.a, a_expr, true);
          b_expr = rounded_to_bf16(g, m.name, m.b, b_expr, false);
        }
      }
      std::string call = "_ucutlass." + m.name + "(a=" + a_expr + ", b=" + b_expr;
      const bool flat = g.tensors[m.output].shape.size() != (m.batch > 1 ? 3u : 2u);
      // A tensor of the output's shape (C, an aux operand) as the kernel's [M, N] or [batch, M, N].
      auto as_d = [&](int t) {
        return var(g, t) + (flat ? (m.batch > 1 ? ".reshape(-1, " + std::to_string(m.m) + ", " : ".reshape(-1, ") + std::to_string(m.n) + ")" : "") +
               ".contiguous()";
      };
      if (fe.residual >= 0) call += ", c=" + as_d(fe.residual);
      if (fe.bias >= 0) call += ", bias=" + bias_argument(g, fe.bias, fe.bias2);
      // The later epilogue steps' operands, by the names the host entry gives them (map::FusedStep).
      for (const map::FusedStep& s : fe.dsl_steps) {
        if (s.extra.empty()) continue;
        const bool matrix = s.step->kind == map::StepKind::residual || s.step->kind == map::StepKind::mul_aux;
        call += ", " + s.extra + "=" + (matrix ? as_d(s.step->operand) : var(g, s.step->operand) + ".reshape(-1)");
      }
      call += ")";
      if (flat) call += ".reshape(" + shape_list(g.tensors[out_tensor].shape) + ")";
      f << "        # " << n.id << " " << m.anchor_op << " + " << fe.steps << " fused step(s): CUTLASS kernel " << m.name << "\n";
      f << "        " << target << " = " << call << "\n";
      if (bias_left) f << "        " << var(g, m.output) << " = " << target << " + " << var(g, m.chain[0].operand) << "\n";
      continue;
    }
    if (covered[i]) continue;
    f << "        ";
    for (size_t o = 0; o < n.outputs.size(); ++o) f << (o ? ", " : "") << var(g, n.outputs[o]);
    if (n.outputs.empty()) f << "_";
    std::string op = n.op;
    if (op.rfind("aten.", 0) != 0) {
      *err = "node " + n.id + " (" + n.op + ") is not an ATen op";
      return "";
    }
    f << " = torch.ops." << op << "(";
    // A softmax over the channels of a channels-last tensor runs over the moved view (channels_last.h).
    const bool moved = is_channel_softmax(g, n, channels_last);
    bool first = true;
    for (size_t a = 0; a < n.args.size(); ++a) {
      std::string value = python_value(n.args[a], g);
      if (moved && a == 0) value += ".movedim(1, -1)";
      if (moved && a == 1) value = "-1";
      f << (first ? "" : ", ") << value;
      first = false;
    }
    for (const auto& [key, value] : n.kwargs.items()) {
      f << (first ? "" : ", ") << key << "=" << python_value(value, g);
      first = false;
    }
    f << (moved ? ").movedim(-1, 1)\n" : ")\n");
  }
  f << "        return ";
  for (size_t i = 0; i < g.outputs.size(); ++i) f << (i ? ", " : "") << var(g, g.outputs[i]);
  f << "\n";
  return f.str();
}



SolutionFiles make_solution(const std::string& problem_source, const graph::OpGraph& g, const std::vector<map::GemmMatch>& gemms,
                            const std::vector<map::KernelConfig>& configs, const std::string& cutlass_dir) {
  SolutionFiles out;
  // Each kernel's match as it runs (a sub-pixel conv is its rewritten fprop, map/subpixel.h).
  std::vector<map::GemmMatch> run;
  for (size_t i = 0; i < gemms.size(); ++i) run.push_back(map::as_run(gemms[i], configs[i]));
  out.dsl = map::program_dsl(g.problem_name, run, configs);
  FrontendResult fe = run_frontend(g.problem_name + ".dsl", out.dsl);
  if (!fe.ok) {
    out.error = "the front end rejected the program:\n" + fe.diags->render();
    return out;
  }
  out.hash = fe.hash;
  SolutionInput in;
  in.problem_source = problem_source;
  in.graph = &g;
  in.gemms = run;
  in.configs = configs;
  in.hash = fe.hash;
  in.files = codegen::emit_program(fe.program, fe.hash);
  in.arch_flags = build::arch_flags(fe.program);
  in.cutlass_dir = cutlass_dir;
  in.dsl = out.dsl;
  out.modelnew = write_modelnew(in, &out.error);
  return out;
}

}  // namespace ucutlass::solution
