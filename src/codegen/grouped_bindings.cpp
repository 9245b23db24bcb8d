#include "codegen/grouped_bindings.h"

#include "codegen/bindings.h"
#include "codegen/capi_entry.h"
#include "codegen/grouped_gemm.h"
#include "codegen/manifest.h"
#include "codegen/text_template.h"

namespace ucutlass::codegen {

namespace {

using ir::GemmKernel;

constexpr std::string_view kCapiSupport = R"CPP(
#define UCUTLASS_SAME_GROUPED_FIELD(f)                                                                   \
  static_assert(offsetof(ucutlass_grouped_gemm_params, f) == offsetof(ucutlass_$HASH$::GroupedGemmParams, f), \
                "ucutlass_grouped_gemm_params." #f " must match GroupedGemmParams")
static_assert(sizeof(ucutlass_grouped_gemm_params) == sizeof(ucutlass_$HASH$::GroupedGemmParams), "layout mismatch");
UCUTLASS_SAME_GROUPED_FIELD(groups); UCUTLASS_SAME_GROUPED_FIELD(problems); UCUTLASS_SAME_GROUPED_FIELD(a);
UCUTLASS_SAME_GROUPED_FIELD(b); UCUTLASS_SAME_GROUPED_FIELD(c); UCUTLASS_SAME_GROUPED_FIELD(d);
UCUTLASS_SAME_GROUPED_FIELD(lda); UCUTLASS_SAME_GROUPED_FIELD(ldb); UCUTLASS_SAME_GROUPED_FIELD(ldc);
UCUTLASS_SAME_GROUPED_FIELD(ldd); UCUTLASS_SAME_GROUPED_FIELD(alpha); UCUTLASS_SAME_GROUPED_FIELD(beta);
#undef UCUTLASS_SAME_GROUPED_FIELD

namespace {

ucutlass_$HASH$::GroupedGemmParams to_grouped_params(const ucutlass_grouped_gemm_params* p) {
  ucutlass_$HASH$::GroupedGemmParams q{};
  std::memcpy(&q, p, sizeof q);
  return q;
}

}  // namespace
)CPP";

constexpr std::string_view kTorchFunction = R"CPP(
// $SUMMARY$
std::vector<at::Tensor> $NAME$($PARAMS$) {
  const char* kernel = "$NAME$";
  const size_t groups = a.size();
  TORCH_CHECK(groups > 0, kernel, ": a is an empty list; give one tensor per group");
  TORCH_CHECK(groups <= static_cast<size_t>(INT32_MAX), kernel, ": too many groups (", groups, ")");
$GROUPS_CHECK$  TORCH_CHECK(b.size() == groups, kernel, ": a has ", groups, " tensors but b has ", b.size());
$C_COUNT_CHECK$  TORCH_CHECK(a[0].dim() == 2, kernel, ": group tensors must be 2-D, a[0] is ", a[0].dim(), "-D");
  c10::cuda::CUDAGuard guard(a[0].device());
  std::vector<int> problems(3 * groups);
  std::vector<const void*> pa(groups), pb(groups), pc(groups);
  std::vector<void*> pd(groups);
  std::vector<long long> lda(groups), ldb(groups), ldc(groups), ldd(groups);
  std::vector<at::Tensor> d;
  d.reserve(groups);
  for (size_t g = 0; g < groups; ++g) {
    const std::string who = std::string(kernel) + ": group " + std::to_string(g);
    const Matrix ma = check_matrix(a[g], who.c_str(), "a", $DTYPE_A$, $ROW_A$, a[0]);
    const Matrix mb = check_matrix(b[g], who.c_str(), "b", $DTYPE_B$, $ROW_B$, a[0]);
    TORCH_CHECK(ma.cols == mb.rows, who, ": a is [M, K] = [", ma.rows, ", ", ma.cols, "] but b is [K, N] = [",
                mb.rows, ", ", mb.cols, "]");
    const int64_t m = ma.rows, n = mb.cols, k = ma.cols;
    TORCH_CHECK(m <= INT32_MAX && n <= INT32_MAX && k <= INT32_MAX, who, ": extents beyond 2^31 - 1");
$C_CHECK$    d.push_back(allocate_output(a[g], $DTYPE_D$, $ROW_C$, 1, m, n));
    const Matrix md = check_matrix(d.back(), who.c_str(), "d", $DTYPE_D$, $ROW_C$, a[0]);
    problems[3 * g] = static_cast<int>(m);
    problems[3 * g + 1] = static_cast<int>(n);
    problems[3 * g + 2] = static_cast<int>(k);
    pa[g] = a[g].data_ptr();
    pb[g] = b[g].data_ptr();
    pd[g] = d.back().data_ptr();
    lda[g] = ma.ld;
    ldb[g] = mb.ld;
    ldd[g] = md.ld;
  }

  ucutlass_grouped_gemm_params p{};
  p.groups = static_cast<int>(groups);
  p.problems = problems.data();
  p.a = pa.data();
  p.b = pb.data();
$C_PARAMS$  p.d = pd.data();
  p.lda = lda.data();
  p.ldb = ldb.data();
  p.ldd = ldd.data();
  p.alpha = static_cast<float>(alpha);
  p.beta = static_cast<float>($BETA$);

  // 0 when a group is refused; the run then returns the reason without touching the GPU.
  const size_t workspace_bytes = ucutlass_$NAME$_workspace_size(&p);
  const at::Tensor workspace = workspace_tensor(workspace_bytes, a[0].device());
  char msg[512];
  const int rc = ucutlass_$NAME$_run_with_workspace(&p, at::cuda::getCurrentCUDAStream().stream(),
                                                    workspace_bytes ? workspace.data_ptr() : nullptr,
                                                    workspace_bytes, msg, sizeof msg);
  TORCH_CHECK(rc == 0, kernel, ": ", msg);
  return d;
}
)CPP";

constexpr std::string_view kTorchCCheck = R"CPP(    const Matrix mc = check_matrix(c[g], who.c_str(), "c", $DTYPE_C$, $ROW_C$, a[0]);
    TORCH_CHECK(mc.rows == m && mc.cols == n, who, ": c must be [", m, ", ", n, "] like D, got [", mc.rows, ", ",
                mc.cols, "]");
    pc[g] = c[g].data_ptr();
    ldc[g] = mc.ld;
)CPP";

std::string row(ir::Layout l) { return l == ir::Layout::row ? "true" : "false"; }

}  // namespace

std::string emit_grouped_c_struct(const ir::Program& p) {
  return program_has_grouped(p) ? emit_c_grouped_params_struct() : "";
}

std::string emit_capi_grouped_support(const ir::Program& p, const std::string& hash) {
  return program_has_grouped(p) ? fill(kCapiSupport, {{"HASH", hash}}) : "";
}

std::string emit_grouped_capi_entry(const GemmKernel& k, const std::string& hash) {
  return emit_capi_kernel_entry({k.name, hash, "ucutlass_grouped_gemm_params", "to_grouped_params(p)",
                                 c_string_literal(kernel_signature_json(k, hash))});
}

std::string emit_grouped_torch_declarations(const GemmKernel& k) {
  return emit_capi_kernel_declarations(k.name, "ucutlass_grouped_gemm_params");
}

std::string emit_grouped_torch_function(const GemmKernel& k) {
  std::string params = "std::vector<at::Tensor> a, std::vector<at::Tensor> b";
  if (k.has_source()) params += ", std::vector<at::Tensor> c";
  params += ", double alpha";
  if (k.has_source()) params += ", double beta";
  const int64_t fixed = k.groups->value;
  Substitutions subs = {
      {"NAME", k.name},
      {"PARAMS", params},
      {"DTYPE_A", torch_scalar_type(k.a.value)},
      {"DTYPE_B", torch_scalar_type(k.b.value)},
      {"DTYPE_C", torch_scalar_type(k.c.value)},
      {"DTYPE_D", torch_scalar_type(k.d.value)},
      {"ROW_A", row(k.layout_a.value)},
      {"ROW_B", row(k.layout_b.value)},
      {"ROW_C", row(k.layout_c.value)},
      {"BETA", k.has_source() ? "beta" : "0.0"},
      {"GROUPS_CHECK", fixed == 0 ? ""
                                  : "  TORCH_CHECK(groups == " + std::to_string(fixed) +
                                        ", kernel, \": the kernel was compiled for " + std::to_string(fixed) +
                                        " groups, got \", groups);\n"},
      {"C_COUNT_CHECK",
       k.has_source() ? "  TORCH_CHECK(c.size() == groups, kernel, \": a has \", groups, \" tensors but c has \", "
                        "c.size());\n"
                      : ""},
      {"C_PARAMS", k.has_source() ? "  p.c = pc.data();\n  p.ldc = ldc.data();\n" : ""},
      {"SUMMARY", "D_g = " + std::string(k.has_source() ? "alpha * A_g @ B_g + beta * C_g" : "alpha * A_g @ B_g") +
                      (k.epilogue.empty() ? "" : ", then the epilogue steps in order") + ", for every group g"}};
  subs.push_back({"C_CHECK", k.has_source() ? fill(kTorchCCheck, subs) : ""});
  return fill(kTorchFunction, subs);
}

std::string emit_grouped_torch_def(const GemmKernel& k) {
  std::string s = "  m.def(\"" + k.name + "\", &" + k.name + ", \"ucutlass grouped kernel " + k.name +
                  "\", pybind11::arg(\"a\"), pybind11::arg(\"b\")";
  if (k.has_source()) s += ", pybind11::arg(\"c\")";
  s += ",\n        pybind11::arg(\"alpha\") = " + python_float_literal(k.alpha.value);
  if (k.has_source()) s += ", pybind11::arg(\"beta\") = " + python_float_literal(k.beta.value);
  return s + ");\n";
}

}  // namespace ucutlass::codegen
