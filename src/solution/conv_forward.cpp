#include "solution/conv_forward.h"

#include <cstdio>

#include "map/conv_match.h"
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

std::string back_to_contiguous(const map::ConvSpec& s, const std::string& expr) {
  return s.output_copy ? "_ucutlass.contiguous(" + expr + ")" : expr;
}

std::string conv_forward_lines(const graph::OpGraph& g, const map::GemmMatch& m, const map::FusedEpilogue& fe,
                               bool k_stack3) {
  const map::ConvSpec& s = *m.conv;
  const int out_tensor = fe.steps ? m.chain[fe.steps - 1].output : m.output;
  const bool bias_left = fe.steps == 0 && !m.chain.empty() && m.chain[0].node == m.anchor;
  if (s.subpixel) return subpixel_forward_lines(g, m, out_tensor, fe.bias, fe.residual, bias_left, k_stack3);
  std::string x = var(g, m.a.tensor), w = var(g, m.b.tensor);
  if (s.padded_from) {  // map/channel_pad.h: x per call, a weight parameter once per version
    const std::string c = std::to_string(s.c);
    x = "_ucutlass_pad_channels(" + x + ", " + c + ")";
    const std::string padded_w = "_ucutlass_pad_channels(" + w + ", " + c + ")";
    w = m.b.parameter ? cached_param(m.name + ".w", w, padded_w) : padded_w;
  }
  else if (m.b.parameter && !k_stack3)  // the binding's layout copy of a weight, once per parameter version
    w = cached_param(m.name + ".w", w, "_ucutlass.channels_last(" + w + ")");
  if (k_stack3) {  // forward convs with groups = 1 only (search/conv_space.cpp)
    x = stacked_operand(g, m.name, m.a, x, true, "1");
    w = stacked_operand(g, m.name, m.b, w, false, "1");
  }
  std::string call = "_ucutlass." + m.name + "(" + (s.transposed ? "dy=" : "x=") + x + ", w=" + w;
  if (fe.residual >= 0) call += ", c=" + var(g, fe.residual);
  if (fe.bias >= 0) call += ", bias=" + var(g, fe.bias) + ".reshape(-1)";
  call += ")";
  std::string lines = "        # " + g.nodes[m.anchor].id + " " + m.anchor_op + " + " + std::to_string(fe.steps) +
                      " fused step(s): CUTLASS kernel " + m.name + "\n";
  if (!bias_left) return lines + "        " + var(g, out_tensor) + " = " + back_to_contiguous(s, call) + "\n";
  std::string channel_vector = ".reshape(1, -1";
  for (int i = 0; i < s.dims; ++i) channel_vector += ", 1";
  channel_vector += ")";
  lines += "        _" + m.name + " = " + call + "\n";
  lines += "        " + var(g, m.output) + " = " +
           back_to_contiguous(s, "(_" + m.name + " + " + var(g, m.chain[0].operand) + channel_vector + ")") + "\n";
  return lines;
}

std::string conv_layout_comment(const map::GemmMatch& m) {
  const map::ConvSpec& s = *m.conv;
  const double in = graph::dtype_bytes(m.in), out = graph::dtype_bytes(m.out);
  std::string text = "layout copies per call (read + write): weight to KRSC " +
                     (m.b.parameter ? "cached (once per parameter version)" : megabytes(2.0 * s.w_elements * in));
  text += s.input_copy ? ", activation to channels-last " + megabytes(2.0 * s.x_elements * in)
                       : ", activation already channels-last (an earlier conv kernel's result)";
  if (s.output_copy) text += ", result back to contiguous " + megabytes(2.0 * s.y_elements * out);
  return text + "; total " + megabytes(map::conv_layout_copy_bytes(m));
}

}  // namespace ucutlass::solution
