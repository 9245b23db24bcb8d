#include "solution/subpixel_shuffle.h"

#include "solution/bias_argument.h"
#include "solution/conv_forward.h"
#include "solution/k_stack.h"
#include "solution/param_cache.h"

namespace ucutlass::solution {

namespace {

std::string var(const graph::OpGraph& g, int t) { return g.tensors[t].id; }

}  // namespace

// The filter of phase r along a dimension is w[(L - 1 - u)*s + r] (map/subpixel.h): pad the taps to
// L*s, split them into (j, r), flip j, and move the phases ahead of Cout as channels. The shuffle
// undoes the phase channels: z[n, (r..., co), q...] goes to y[n, co, q*s + r ...], then the crop.
// z is the kernel's channels-last result and y is channels-last too, so the shuffle's one copy moves
// whole runs of Cout channels; an NCHW y gathers one value per run (on the H200, level1/025's
// 128 MB result: 0.35 ms for that copy against the kernel's 0.12 ms). The rewritten weight is built
// channels-last, so the binding takes it without a copy.
const std::string_view kSubpixelHelpers = R"PY(
def _ucutlass_subpixel_filter(w, stride):
    cin, cout, taps = w.shape[0], w.shape[1], list(w.shape[2:])
    dims = len(taps)
    sub = [-(-k // s) for k, s in zip(taps, stride)]
    pad = []
    for k, s, n in zip(reversed(taps), reversed(stride), reversed(sub)):
        pad += [0, n * s - k]
    w = torch.nn.functional.pad(w, pad)
    split = [cin, cout]
    for n, s in zip(sub, stride):
        split += [n, s]
    w = w.reshape(split).flip([2 + 2 * i for i in range(dims)])
    order = [3 + 2 * i for i in range(dims)] + [1, 0] + [2 + 2 * i for i in range(dims)]
    phases = 1
    for s in stride:
        phases *= s
    w = w.permute(order).reshape(phases * cout, cin, *sub)
    if w.dim() == 4:  # channels-last, as the binding reads it: no copy per call
        return w.contiguous(memory_format=torch.channels_last)
    if w.dim() == 5:
        return w.contiguous(memory_format=torch.channels_last_3d)
    return w.contiguous()


def _ucutlass_pixel_shuffle(z, stride, crop, out):
    dims = len(stride)
    phases = 1
    for s in stride:
        phases *= s
    n, grid = z.shape[0], list(z.shape[2:])
    cout = z.shape[1] // phases
    y = z.movedim(1, -1).reshape(n, *grid, *stride, cout)
    order = [0]
    for i in range(dims):
        order += [1 + i, 1 + dims + i]
    order.append(1 + 2 * dims)
    y = y.permute(order).reshape(n, *[g * s for g, s in zip(grid, stride)], cout).movedim(-1, 1)
    return y[(slice(None), slice(None)) + tuple(slice(c, c + o) for c, o in zip(crop, out))]

)PY";

std::string subpixel_forward_lines(const graph::OpGraph& g, const map::GemmMatch& m, int out_tensor, int fused_bias,
                                   int fused_bias2, int residual, bool bias_left, bool k_stack3, bool bf16) {
  const map::ConvSpec& s = *m.conv;
  const map::ConvSpec::Subpixel& sp = *s.subpixel;
  int64_t phases = 1;
  for (int64_t v : sp.stride) phases *= v;
  const std::string strides = spatial_tuple(sp.stride, s.dims), w = var(g, m.b.tensor);
  // Rounded to bf16 for a plain bf16 kernel; split into bf16 parts (3xBF16) when K-stacked.
  const bool round = bf16 && !k_stack3;
  const std::string filter = rounded_form("_ucutlass_subpixel_filter(" + w + ", " + strides + ")", round);
  std::string x = round ? rounded_channels_last(var(g, m.a.tensor), true) : var(g, m.a.tensor);
  std::string weight = m.b.parameter ? cached_param(m.name + ".w", w, filter) : filter;
  if (k_stack3) {
    x = stacked_operand(g, m.name, m.a, x, true, "1", bf16);
    weight = stacked_operand(g, m.name, m.b, filter, false, "1", bf16);  // a parameter's stack is cached itself
  }
  std::string call = "_ucutlass." + m.name + "(x=" + x + ", w=" + weight;
  if (residual >= 0) call += ", c=" + var(g, residual);  // not reached: subpixel_match cuts the chain before one
  if (fused_bias >= 0) {  // one value per phase channel; a bias parameter's once per version (a sum of two, every call)
    const std::string b = var(g, fused_bias);
    const std::string repeated = bias_argument(g, fused_bias, fused_bias2) + ".repeat(" + std::to_string(phases) + ")";
    call += ", bias=" + (g.tensors[fused_bias].is_parameter() && fused_bias2 < 0 ? cached_param(m.name + ".bias", b, repeated) : repeated);
  }
  call += ")";
  const std::string z = "_z_" + m.name;
  const std::string shuffled = "_ucutlass_pixel_shuffle(" + z + ", " + strides + ", " + spatial_tuple(sp.crop, s.dims) + ", " +
                               spatial_tuple(sp.out, s.dims) + ")";
  std::string lines = "        # " + g.nodes[m.anchor].id + " " + m.anchor_op +
                      " as a sub-pixel convolution: CUTLASS kernel " + m.name + " over " + std::to_string(s.k) +
                      " phase channels, then the pixel shuffle\n";
  lines += "        " + z + " = " + call + "\n";
  if (!bias_left) return lines + "        " + var(g, out_tensor) + " = " + back_to_contiguous(s, shuffled) + "\n";
  return lines + "        " + var(g, m.output) + " = " + back_to_contiguous(s, plus_channel_bias(g, m, shuffled)) + "\n";
}

}  // namespace ucutlass::solution
