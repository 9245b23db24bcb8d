#include "solution/conv_forward.h"

#include <cstdio>

#include "map/conv_match.h"
#include "solution/bias_argument.h"
#include "solution/k_stack.h"
#include "solution/param_cache.h"
#include "solution/subpixel_shuffle.h"

namespace ucutlass::solution {

namespace {

std::string var(const graph::OpGraph& g, int t) { return g.tensors[t].id; }

std::string megabytes(double bytes) {
  char buf[32];
  if (bytes < 1e5) std::snprintf(buf, sizeof buf, "%.1f KB", bytes / 1e3);
  else std::snprintf(buf, sizeof buf, "%.1f MB", bytes / 1e6);
  return buf;
}

}  // namespace

// Zero channels appended along axis 1 of x [N, C, ...] or w [K, C, ...], written channels-last, the
// layout the binding reads, so this copy replaces the binding's own.
const std::string_view kChannelPadHelpers = R"PY(
def _ucutlass_pad_channels(t, channels):
    shape = list(t.shape)
    shape[1] = channels
    layout = {4: torch.channels_last, 5: torch.channels_last_3d}.get(t.dim(), torch.contiguous_format)
    out = torch.empty(shape, dtype=t.dtype, device=t.device, memory_format=layout)
    out[:, t.shape[1]:].zero_()
    out[:, :t.shape[1]].copy_(t)
    return out

)PY";

// The input of a space-to-depth conv (map/space_to_depth.h): x zero-padded (or cropped) to grid x stride
// from -pad in each spatial dimension, each block's phases moved into the channels (phase-major, then
// c), in channels-last memory, the layout the binding reads, so this one copy replaces the binding's.
// The weight [K, C, k...] becomes [K, prod(stride) * C, ceil(k / stride)...] the same way, once.
const std::string_view kSpaceToDepthHelpers = R"PY(
def _ucutlass_space_to_depth(x, stride, pad, grid):
    dims = len(stride)
    pads = []
    for size, s, p, g in zip(reversed(x.shape[2:]), reversed(stride), reversed(pad), reversed(grid)):
        pads += [p, g * s - size - p]
    x = torch.nn.functional.pad(x, pads)
    split = list(x.shape[:2])
    for g, s in zip(grid, stride):
        split += [g, s]
    order = [0] + [2 + 2 * i for i in range(dims)] + [3 + 2 * i for i in range(dims)] + [1]
    return x.reshape(split).permute(order).reshape(x.shape[0], *grid, -1).movedim(-1, 1)


def _ucutlass_space_to_depth_filter(w, stride):
    dims = len(stride)
    sub = [-(-k // s) for k, s in zip(w.shape[2:], stride)]
    pads = []
    for k, s, n in zip(reversed(w.shape[2:]), reversed(stride), reversed(sub)):
        pads += [0, n * s - k]
    w = torch.nn.functional.pad(w, pads)
    split = list(w.shape[:2])
    for n, s in zip(sub, stride):
        split += [n, s]
    order = [0] + [3 + 2 * i for i in range(dims)] + [1] + [2 + 2 * i for i in range(dims)]
    w = w.reshape(split).permute(order).reshape(w.shape[0], -1, *sub)
    return w.movedim(1, -1).contiguous().movedim(-1, 1)

)PY";

// The used dimensions of a per-(d, h, w) array as a Python tuple: "(2, 2)" for a conv2d.
std::string spatial_tuple(const std::array<int64_t, 3>& v, int dims) {
  std::string out = "(";
  for (int i = 3 - dims; i < 3; ++i) out += std::to_string(v[i]) + (i + 1 < 3 ? ", " : dims == 1 ? "," : "");
  return out + ")";
}

std::string plus_channel_bias(const graph::OpGraph& g, const map::GemmMatch& m, const std::string& expr) {
  std::string channel_vector = ".reshape(1, -1";
  for (int i = 0; i < m.conv->dims; ++i) channel_vector += ", 1";
  return "(" + expr + " + " + var(g, m.chain[0].operand) + channel_vector + "))";
}

std::string back_to_contiguous(const map::ConvSpec& s, const std::string& expr) {
  return s.output_copy ? "_ucutlass.contiguous(" + expr + ")" : expr;
}

std::string rounded_channels_last(const std::string& expr, bool bf16) {
  return "_ucutlass.channels_last(" + expr + (bf16 ? ", True)" : ")");
}

std::string rounded_form(const std::string& expr, bool bf16) { return bf16 ? expr + ".to(torch.bfloat16)" : expr; }

std::string conv_forward_lines(const graph::OpGraph& g, const map::GemmMatch& m, const map::FusedEpilogue& fe,
                               bool k_stack3, bool bf16) {
  const map::ConvSpec& s = *m.conv;
  const int out_tensor = fe.steps ? m.chain[fe.steps - 1].output : m.output;
  const bool bias_left = fe.steps == 0 && !m.chain.empty() && m.chain[0].node == m.anchor;
  if (s.subpixel) return subpixel_forward_lines(g, m, out_tensor, fe.bias, fe.bias2, fe.residual, bias_left, k_stack3, bf16);
  std::string x = var(g, m.a.tensor), w = var(g, m.b.tensor);
  // A K-stacked conv splits into bf16 parts itself (3xBF16): nothing is rounded before the split.
  const bool round = bf16 && !k_stack3;
  if (s.padded_from) {  // map/channel_pad.h: x per call, a weight parameter once per version
    const std::string c = std::to_string(s.c);
    x = rounded_form("_ucutlass_pad_channels(" + x + ", " + c + ")", round);
    const std::string padded_w = rounded_form("_ucutlass_pad_channels(" + w + ", " + c + ")", round);
    w = m.b.parameter ? cached_param(m.name + ".w", w, padded_w) : padded_w;
  } else if (s.space_to_depth) {  // map/space_to_depth.h: x per call, a weight parameter once per version
    const map::ConvSpec::SpaceToDepth& b = *s.space_to_depth;
    x = rounded_form("_ucutlass_space_to_depth(" + x + ", " + spatial_tuple(b.stride, s.dims) + ", " +
                         spatial_tuple(b.pad, s.dims) + ", " + spatial_tuple(b.grid, s.dims) + ")",
                     round);
    const std::string blocked_w =
        rounded_form("_ucutlass_space_to_depth_filter(" + w + ", " + spatial_tuple(b.stride, s.dims) + ")", round);
    w = m.b.parameter ? cached_param(m.name + ".w", w, blocked_w) : blocked_w;
  } else if (round) {  // the binding's channels-last copy rounds on the way: x per call, a weight once per version
    x = rounded_channels_last(x, true);
    w = m.b.parameter ? cached_param(m.name + ".w", w, rounded_channels_last(w, true)) : rounded_channels_last(w, true);
  } else if (m.b.parameter && !k_stack3)  // the binding's layout copy of a weight, once per parameter version
    w = cached_param(m.name + ".w", w, rounded_channels_last(w, false));
  if (k_stack3) {  // forward convs with groups = 1 only (search/conv_space.cpp); a parameter's stack is cached
    x = stacked_operand(g, m.name, m.a, x, true, "1", bf16);
    w = stacked_operand(g, m.name, m.b, w, false, "1", bf16);
  }
  std::string call = "_ucutlass." + m.name + "(" + (s.transposed ? "dy=" : "x=") + x + ", w=" + w;
  if (fe.residual >= 0) call += ", c=" + var(g, fe.residual);
  if (fe.bias >= 0) call += ", bias=" + bias_argument(g, fe.bias, fe.bias2);
  call += ")";
  std::string lines = "        # " + g.nodes[m.anchor].id + " " + m.anchor_op + " + " + std::to_string(fe.steps) +
                      " fused step(s): CUTLASS kernel " + m.name + "\n";
  if (!bias_left) return lines + "        " + var(g, out_tensor) + " = " + back_to_contiguous(s, call) + "\n";
  lines += "        _" + m.name + " = " + call + "\n";
  lines += "        " + var(g, m.output) + " = " + back_to_contiguous(s, plus_channel_bias(g, m, "_" + m.name)) + "\n";
  return lines;
}

std::string conv_layout_comment(const map::GemmMatch& m, bool rounding) {
  const map::ConvSpec& s = *m.conv;
  // A rounding copy reads the f32 data and writes the kernel's bf16 (rounded_channels_last).
  const map::ConvLayoutCopies bytes = map::conv_layout_copies(m, rounding);
  const std::string to = rounding ? " (rounded to bf16) " : " ";
  std::string text = "layout copies per call (read + write): weight to KRSC" + to +
                     (m.b.parameter ? "cached (once per parameter version)" : megabytes(bytes.weight));
  text += s.input_copy ? ", activation to channels-last" + to + megabytes(bytes.activation)
                       : ", activation already channels-last (an earlier conv kernel's result)";
  if (s.output_copy) text += ", result back to contiguous " + megabytes(bytes.result);
  return text + "; total " + megabytes(bytes.total());
}

}  // namespace ucutlass::solution
