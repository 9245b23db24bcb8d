#include "solution/k_stack.h"

#include "solution/param_cache.h"

namespace ucutlass::solution {

// 3xTF32 by K stacking (map::KernelConfig::k_stack3): the split the kernel's operands need, in
// PyTorch ops. hi = x rounded to TF32 (add half a TF32 ulp to the bits, clear the 13 low mantissa
// bits: nearest, ties away; Inf and the usual NaN stay), lo = x - hi (exact in f32). 3xBF16 (with
// bf16_operands) splits into bf16 parts: hi = x rounded to bf16 (nearest even), lo = x - hi rounded
// to bf16 (2^-17 of x left out; the dropped lo·lo term is 2^-18). A gets
// [lo, hi, hi] and B [hi; lo; hi] along K, so the stacked product is lo·hi + hi·lo + hi·hi, the
// small terms first. The order matters on the H200: its tensor cores accumulate as if truncating
// (a K-chunked fp32 accumulation rounded toward zero reproduces the measured errors: 1.05e-4 vs the
// measured 8.8e-5 for big-first stacking, 3.7e-4 vs 4.3e-4 for plain TF32, on level2/017), and the
// small terms lose less added while the sum is still small (2.4e-5 in that model; to be measured).
// On a GPU the program's own kernel builds the stack in one pass (codegen/tf32_split.h: 4 words of
// traffic per element); elsewhere, or for strides it does not take, four element-wise PyTorch kernels
// write straight into the stacked buffer (9 to 10 words). A parameter's split is built once and
// rebuilt when the parameter changes (_ucutlass_cached, param_cache.h). With k_out, x is zero-padded
// along K to k_out first (map/stacked_k.h): one copy more, for a K whose parts are not 16-byte rows.
const std::string_view kStack3Helpers = R"PY(
def _ucutlass_stack3(x, a_side, k_dim=-1, bf16=False, k_out=None):
    if k_dim != -1:
        return _ucutlass_stack3(x.movedim(k_dim, -1), a_side, -1, bf16, k_out).movedim(-1, k_dim)
    x = x.float()
    if k_out is not None and k_out > x.shape[-1]:  # parts of whole 16-byte rows: zeros add nothing
        x = torch.nn.functional.pad(x, (0, k_out - x.shape[-1]))
    if x.is_cuda:
        fused = (_ucutlass.bf16_stack3 if bf16 else _ucutlass.tf32_stack3)(x, a_side)
        if fused is not None:
            return fused
    k = x.shape[-1]
    out = torch.empty(*x.shape[:-1], 3 * k, dtype=torch.bfloat16 if bf16 else torch.float32, device=x.device)
    hi, lo = (out[..., k:2 * k], out[..., :k]) if a_side else (out[..., :k], out[..., k:2 * k])
    if bf16:
        hi.copy_(x)
        lo.copy_(x - hi.float())
    else:
        torch.bitwise_and(x.view(torch.int32) + 4096, -8192, out=hi.view(torch.int32))
        torch.sub(x, hi, out=lo)
    out[..., 2 * k:].copy_(hi)
    return out


def _ucutlass_stack3_param(owner, key, param, operand, a_side, k_dim, bf16=False, k_out=None):
    return _ucutlass_cached(owner, key, param, lambda: _ucutlass_stack3(operand(), a_side, k_dim, bf16, k_out))

)PY";

std::string stacked_operand(const graph::OpGraph& g, const std::string& kernel, const map::GemmOperand& op,
                            const std::string& e, bool a_side, const std::string& k_dim, bool bf16, int64_t k_out) {
  const std::string side = a_side ? "True" : "False",
                    parts = std::string(bf16 ? ", bf16=True" : "") + (k_out > 0 ? ", k_out=" + std::to_string(k_out) : "");
  if (op.parameter)
    return "_ucutlass_stack3_param(self, \"" + kernel + (a_side ? ".a" : ".b") + "\", " + g.tensors[op.tensor].id +
           ", lambda: " + e + ", " + side + ", " + k_dim + parts + ")";
  return "_ucutlass_stack3(" + e + ", " + side + ", " + k_dim + parts + ")";
}

std::string rounded_to_bf16(const graph::OpGraph& g, const std::string& kernel, const map::GemmOperand& op,
                            const std::string& e, bool a_side) {
  // Tensor.to keeps a dense operand's strides, so the kernel reads the layout the expression has.
  const std::string rounded = e + ".to(torch.bfloat16)";
  if (!op.parameter) return rounded;
  return cached_param(kernel + (a_side ? ".a" : ".b"), g.tensors[op.tensor].id, rounded);
}

}  // namespace ucutlass::solution
