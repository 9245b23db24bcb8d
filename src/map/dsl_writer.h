#pragma once
// A matched GEMM plus a configuration becomes DSL text: one `kernel`
// declaration per match, all in one program (one hash, one library). The
// front end then judges the text exactly as it judges a person's program, so
// the optimizer can never emit something `ucutlass check` would reject.
#include <string>
#include <vector>

#include "ir/gemm_kernel.h"
#include "map/gemm_match.h"

namespace ucutlass::map {

// A convolution rewritten into one sm90a runs: each is a problem of its own, with the solution's
// helpers turning the problem's tensors into it and back.
enum class ConvForm {
  as_written,
  // A strided transposed conv run as a sub-pixel convolution (map/subpixel.h): an sm90a fprop
  // kernel over prod(stride) x Cout channels, the solution shuffling its output into place.
  subpixel,
  // A forward conv whose input channels are not 16-byte pixels, run with them zero-padded so sm90a's
  // TMA loads take it (map/channel_pad.h): the solution pads x per call and the weight once.
  padded_channels,
  // A strided forward conv over few channels run over its input's space-to-depth blocks
  // (map/space_to_depth.h): the solution builds the blocked input per call and the weight once.
  space_to_depth,
};

// The knobs the search varies. Zero / auto values are left to the front end.
struct KernelConfig {
  ir::Arch arch = ir::Arch::sm90a;
  ir::MathPath math = ir::MathPath::tensor_op;
  bool conv = false;  // a conv kernel's config: no layouts, no tile scheduler (summary leaves them out)
  ir::Layout layout_a = ir::Layout::row, layout_b = ir::Layout::col;
  ir::Shape3 tile;     // 0 = auto
  ir::Shape3 cluster;  // sm90a; 0 = auto
  ir::Shape3 warps;    // sm80; 0 = auto
  ir::KernelSchedule schedule = ir::KernelSchedule::auto_;
  ir::TileScheduler scheduler = ir::TileScheduler::auto_;
  int splits = 1;  // split_k
  ir::RasterOrder raster = ir::RasterOrder::heuristic;
  int swizzle = 1;
  int stages = 0;  // 0 = auto
  // Run D^T = B^T * A^T (ir/operand_swap.h): tile and cluster are then the swapped kernel's.
  bool operand_swap = false;
  // 3xTF32 on sm90a by stacking K (math tf32; 3xBF16 with bf16_operands): the kernel multiplies [A_lo A_hi A_hi] by
  // [B_hi; B_lo; B_hi] with k = 3K, where x_hi is x rounded to TF32 and x_lo = x - x_hi, so
  // A·B = A_lo·B_hi + A_hi·B_lo + A_hi·B_hi (small terms first, k_stack.cpp says why) up to the dropped A_lo·B_lo (2^-22 relative). The
  // solution builds the stacked operands (solution/k_stack.h); CUTLASS 4.2 has no SM90
  // 3xTF32 mainloop (only sm80's), and this runs at the wgmma TF32 rate.
  bool k_stack3 = false;
  // f32 operands rounded to bf16 for a 16-bit tensor_op kernel (f32 accumulation, f32 output), where the
  // tolerance allows it (1e-2: sol/precision_policy.h prices f32 there at the bf16 rate): an input is
  // rounded per call, a parameter once per version. With k_stack3 the split is into bf16 parts instead
  // (3xBF16: hi = bf16(x), lo = bf16(x - hi), 2^-16 relative per product, at the bf16 tensor rate).
  bool bf16_operands = false;
  // How a convolution runs, when not as the problem writes it (map/run_form.h applies the form).
  ConvForm form = ConvForm::as_written;
  // Run as a GEMV kernel (map::runs_as_gemv, ir/validate_gemv.h) with these levers (0 = auto);
  // tile, cluster, warps, schedule, scheduler, raster and stages are then unused.
  bool gemv = false;
  int gemv_access = 0, gemv_threads_per_row = 0, gemv_threads = 0;
  // A row anchor's kernel (GemmMatch::rows, ir/row_problem.h) with these levers (0 = auto); every
  // knob above is then unused.
  bool rows = false;
  int row_access = 0, row_threads = 0, row_items = 0, row_splits = 0;
  // An attention anchor's kernel (GemmMatch::attention, ir/attention_problem.h), 0 = auto.
  bool attention = false;
  int attention_block_q = 0, attention_block_k = 0;
  ir::AttentionScores attention_scores = ir::AttentionScores::bf16x3;
  // At most this many of the chain's steps fused into the epilogue, the rest left to PyTorch after the
  // kernel (0: the longest legal prefix, map::fusable_prefix). A costly epilogue can lose to a PyTorch
  // pass over D: in session 19's stores level2/007's GEMM with the bias fused and mish in PyTorch ran
  // 0.241 ms, with mish fused 0.343 ms (measured days apart; search/config_space.h adds such variants).
  size_t fuse_steps = 0;

  // One line for reports and logs: "sm90a tf32 128x128x32 c2x1x1 cooperative persistent".
  std::string summary() const;
};

// A real number the DSL reads back to the same double.
std::string dsl_number(double v);

// A bias or activation chain step as its DSL epilogue step: "bias(col)", "gelu", "elu(1.0)".
std::string step_dsl(const ChainStep& s);

// The declaration of one kernel (no trailing newline).
std::string kernel_dsl(const GemmMatch& m, const KernelConfig& c);

// A whole program: a comment line naming the problem, then each kernel.
std::string program_dsl(const std::string& problem_name, const std::vector<GemmMatch>& gemms,
                        const std::vector<KernelConfig>& configs);

}  // namespace ucutlass::map
