#include "codegen/attention_kernels.h"

#include <cstdio>

#include "codegen/capi_entry.h"
#include "codegen/manifest.h"
#include "codegen/attention_kernels_text.h"
#include "codegen/text_template.h"

namespace ucutlass::codegen {

namespace {

using ir::AttentionMask;
using ir::GemmKernel;

constexpr std::string_view kPrelude = R"CPP(// Runtime contract of the attention kernels: q [batch, seq_q, head_dim], k and v [batch, seq_k,
// head_dim], o like q, all f32 and contiguous; mask a bool [seq_q, seq_k] (nonzero = masked), read only
// by kernels compiled with mask = tensor.
struct AttentionParams {
  const void* q;
  const void* k;
  const void* v;
  void* o;
  const void* mask;
  long long batch, seq_q, seq_k;
};

)CPP";

constexpr std::string_view kKernel = R"CPP(
// ---------------------------------------------------------------------------
// Kernel $NAME$: $SUMMARY$

namespace $NAME$_detail {

using Kernel = ucutlass_attn::AttentionKernel<$HEAD_DIM$, $BLOCK_Q$, $BLOCK_K$, $SPLIT_SCORES$>;
constexpr long long kBatch = $BATCH$, kSeqQ = $SEQ_Q$, kSeqK = $SEQ_K$;

inline Status make_arguments(const AttentionParams& p, ucutlass_attn::AttentionArgs& args) {
  const char* kernel = "$NAME$";
  if (p.batch != kBatch || p.seq_q != kSeqQ || p.seq_k != kSeqK)
    return detail::error(1, "%s: batch %lld, seq_q %lld, seq_k %lld but the kernel was compiled for %lld, %lld, %lld",
                         kernel, p.batch, p.seq_q, p.seq_k, kBatch, kSeqQ, kSeqK);
  if (p.q == nullptr || p.k == nullptr || p.v == nullptr || p.o == nullptr)
    return detail::error(1, "%s: pointer %s is null", kernel,
                         p.q == nullptr ? "q" : p.k == nullptr ? "k" : p.v == nullptr ? "v" : "o");
$MASK_CHECK$  args.q = static_cast<const float*>(p.q);
  args.k = static_cast<const float*>(p.k);
  args.v = static_cast<const float*>(p.v);
  args.o = static_cast<float*>(p.o);
  args.mask = $MASK$;
  args.causal = $CAUSAL$;
  args.batch = p.batch;
  args.seq_q = static_cast<int>(p.seq_q);
  args.seq_k = static_cast<int>(p.seq_k);
  args.scale = $SCALE$;
  const char* why = nullptr;
  if (Kernel::can_implement(args, &why) != cudaSuccess)
    return detail::error(2, "%s: %s", kernel, why != nullptr ? why : "the attention kernel cannot run these arguments");
  return Status{0, nullptr};
}

}  // namespace $NAME$_detail

inline size_t $NAME$_workspace_size(const AttentionParams&) { return 0; }

inline Status $NAME$_run(const AttentionParams& p, cudaStream_t stream, void* = nullptr, size_t = 0) {
  ucutlass_attn::AttentionArgs args;
  Status st = $NAME$_detail::make_arguments(p, args);
  if (st.code != 0) return st;
  const cudaError_t e = $NAME$_detail::Kernel::run(args, stream);
  if (e != cudaSuccess) return detail::cuda_error("the attention kernel launch", e);
  return Status{0, "ok"};
}
)CPP";

constexpr std::string_view kMaskCheck =
    R"CPP(  if (p.mask == nullptr) return detail::error(1, "%s: pointer mask is null (the kernel reads a mask tensor)", kernel);
)CPP";

constexpr std::string_view kCapiSupport = R"CPP(
#define UCUTLASS_SAME_ATTENTION_FIELD(f)                                                                      \
  static_assert(offsetof(ucutlass_attention_params, f) == offsetof(ucutlass_$HASH$::AttentionParams, f), \
                "ucutlass_attention_params." #f " must match AttentionParams")
static_assert(sizeof(ucutlass_attention_params) == sizeof(ucutlass_$HASH$::AttentionParams), "layout mismatch");
UCUTLASS_SAME_ATTENTION_FIELD(q); UCUTLASS_SAME_ATTENTION_FIELD(k); UCUTLASS_SAME_ATTENTION_FIELD(v);
UCUTLASS_SAME_ATTENTION_FIELD(o); UCUTLASS_SAME_ATTENTION_FIELD(mask); UCUTLASS_SAME_ATTENTION_FIELD(batch);
UCUTLASS_SAME_ATTENTION_FIELD(seq_q); UCUTLASS_SAME_ATTENTION_FIELD(seq_k);
#undef UCUTLASS_SAME_ATTENTION_FIELD

namespace {

ucutlass_$HASH$::AttentionParams to_attention_params(const ucutlass_attention_params* p) {
  ucutlass_$HASH$::AttentionParams q{};
  std::memcpy(&q, p, sizeof q);
  return q;
}

}  // namespace
)CPP";

constexpr std::string_view kCStruct = R"CPP(typedef struct ucutlass_attention_params {
  const void* q;
  const void* k;
  const void* v;
  void* o;
  const void* mask;
  long long batch, seq_q, seq_k;
} ucutlass_attention_params;
)CPP";

constexpr std::string_view kTorchFunction = R"CPP(
// $SUMMARY$; o has q's shape
at::Tensor $NAME$($PARAMS$) {
  const char* kernel = "$NAME$";
  const int64_t expected[3] = {$BATCH$LL * $SEQ_Q$LL * $HEAD_DIM$LL, $BATCH$LL * $SEQ_K$LL * $HEAD_DIM$LL,
                               $BATCH$LL * $SEQ_K$LL * $HEAD_DIM$LL};
  const at::Tensor* operands[3] = {&q, &k, &v};
  const char* names[3] = {"q", "k", "v"};
  for (int i = 0; i < 3; ++i) {
    const at::Tensor& t = *operands[i];
    TORCH_CHECK(t.is_cuda() && t.device() == q.device(), kernel, ": ", names[i], " must be a CUDA tensor on q's device");
    TORCH_CHECK(t.scalar_type() == at::kFloat, kernel, ": ", names[i], " must be float32, got ", t.scalar_type());
    TORCH_CHECK(t.is_contiguous(), kernel, ": ", names[i], " must be contiguous; call .contiguous()");
    TORCH_CHECK(t.numel() == expected[i], kernel, ": ", names[i], " has ", t.numel(),
                " elements but the kernel was compiled for ", expected[i]);
  }
$MASK_TORCH_CHECK$  c10::cuda::CUDAGuard guard(q.device());
  at::Tensor o = at::empty(q.sizes(), q.options());
  ucutlass_attention_params p{};
  p.q = q.data_ptr();
  p.k = k.data_ptr();
  p.v = v.data_ptr();
  p.o = o.data_ptr();
$MASK_PARAM$  p.batch = $BATCH$;
  p.seq_q = $SEQ_Q$;
  p.seq_k = $SEQ_K$;
  char msg[512];
  const int rc = ucutlass_$NAME$_run_with_workspace(&p, at::cuda::getCurrentCUDAStream().stream(), nullptr, 0, msg,
                                                    sizeof msg);
  TORCH_CHECK(rc == 0, kernel, ": ", msg);
  return o;
}
)CPP";

constexpr std::string_view kTorchMaskCheck =
    R"CPP(  TORCH_CHECK(mask.is_cuda() && mask.device() == q.device(), kernel, ": mask must be a CUDA tensor on q's device");
  TORCH_CHECK(mask.scalar_type() == at::kBool, kernel, ": mask must be bool, got ", mask.scalar_type());
  TORCH_CHECK(mask.is_contiguous() && mask.dim() == 2 && mask.size(0) == $SEQ_Q$ && mask.size(1) == $SEQ_K$, kernel,
              ": mask must be a contiguous [$SEQ_Q$, $SEQ_K$] tensor");
)CPP";

std::string str(int64_t v) { return std::to_string(v); }

bool split_scores(const GemmKernel& k) { return k.attention_levers.scores.value == ir::AttentionScores::bf16x3; }

std::string summary(const GemmKernel& k) {
  const ir::AttentionProblem& a = *k.attention;
  char scale[32];
  std::snprintf(scale, sizeof scale, "%g", a.scale);
  return "softmax(" + std::string(scale) + " Q K^T" +
         (a.mask == AttentionMask::none ? "" : a.mask == AttentionMask::causal ? ", causal" : ", masked by a bool tensor") +
         ") V over " + str(a.batch) + " x [" + str(a.seq_q) + " queries, " + str(a.seq_k) + " keys] of " +
         str(a.head_dim) + ", f32 in and out on bf16 tensor cores" +
         (split_scores(k) ? " (scores in three bf16 products)" : "");
}

bool has_mask(const GemmKernel& k) { return k.attention->mask == AttentionMask::tensor; }

Substitutions problem_subs(const GemmKernel& k) {
  const ir::AttentionProblem& a = *k.attention;
  return {{"NAME", k.name},
          {"SUMMARY", summary(k)},
          {"HEAD_DIM", str(a.head_dim)},
          {"BLOCK_Q", str(k.attention_levers.block_q.value)},
          {"BLOCK_K", str(k.attention_levers.block_k.value)},
          {"SPLIT_SCORES", split_scores(k) ? "true" : "false"},
          {"BATCH", str(a.batch)},
          {"SEQ_Q", str(a.seq_q)},
          {"SEQ_K", str(a.seq_k)}};
}

}  // namespace

bool program_has_attention(const ir::Program& p) {
  for (const GemmKernel& k : p.kernels)
    if (k.is_attention()) return true;
  return false;
}

std::string emit_attention_runtime(const ir::Program& p) {
  if (!program_has_attention(p)) return "";
  return runtime_block("src/codegen/runtime/attention_kernels.hpp", kAttentionKernelsSource);
}

std::string emit_attention_host_prelude(const ir::Program& p) {
  return program_has_attention(p) ? std::string(kPrelude) : "";
}

std::string emit_attention_kernel_code(const GemmKernel& k) {
  Substitutions subs = problem_subs(k);
  subs.push_back({"MASK_CHECK", has_mask(k) ? std::string(kMaskCheck) : ""});
  subs.push_back({"MASK", has_mask(k) ? "static_cast<const unsigned char*>(p.mask)" : "nullptr"});
  subs.push_back({"CAUSAL", k.attention->mask == AttentionMask::causal ? "true" : "false"});
  subs.push_back({"SCALE", float_literal(k.attention->scale)});
  return fill(kKernel, subs);
}

std::string emit_attention_c_struct(const ir::Program& p) {
  return program_has_attention(p) ? std::string(kCStruct) : "";
}

std::string emit_capi_attention_support(const ir::Program& p, const std::string& hash) {
  return program_has_attention(p) ? fill(kCapiSupport, {{"HASH", hash}}) : "";
}

std::string emit_attention_capi_entry(const GemmKernel& k, const std::string& hash) {
  return emit_capi_kernel_entry({k.name, hash, "ucutlass_attention_params", "to_attention_params(p)",
                                 c_string_literal(kernel_signature_json(k, hash))});
}

std::string emit_attention_torch_declarations(const GemmKernel& k) {
  return emit_capi_kernel_declarations(k.name, "ucutlass_attention_params");
}

std::string emit_attention_torch_function(const GemmKernel& k) {
  Substitutions subs = problem_subs(k);
  subs.push_back({"PARAMS", has_mask(k) ? "at::Tensor q, at::Tensor k, at::Tensor v, at::Tensor mask"
                                        : "at::Tensor q, at::Tensor k, at::Tensor v"});
  subs.push_back({"MASK_TORCH_CHECK", has_mask(k) ? fill(kTorchMaskCheck, subs) : ""});
  subs.push_back({"MASK_PARAM", has_mask(k) ? "  p.mask = mask.data_ptr();\n" : ""});
  return fill(kTorchFunction, subs);
}

std::string emit_attention_torch_def(const GemmKernel& k) {
  std::string s = "  m.def(\"" + k.name + "\", &" + k.name + ", \"ucutlass attention kernel " + k.name +
                  "\", pybind11::arg(\"q\"), pybind11::arg(\"k\"), pybind11::arg(\"v\")";
  if (has_mask(k)) s += ", pybind11::arg(\"mask\")";
  return s + ");\n";
}

}  // namespace ucutlass::codegen
