# Operand swap: an LLM decode step (16 tokens) through a 8192 x 8192 projection.
# Run as written, 16 rows would fill a quarter of the smallest sm90a tile (64
# rows); swapped, the kernel computes D^T = B^T * A^T, the 8192 output columns
# become its rows and the 16 tokens fit a 16-wide tile N. The program still
# speaks of D = A * B: types, layouts, the per-column bias and the per-row
# scale are as PyTorch sees them; tile, cluster and schedule are the swapped
# kernel's (its M is the problem's N).
kernel decode_proj = gemm(m = 16, n = 8192, k = 8192)
  .with_types(a = bf16, b = bf16, d = bf16)
  .with_layouts(a = row, b = col, c = row)
  .with_operand_swap(on)
  .with_tile(128, 16, 128)
  .with_cluster(1, 1, 1)
  .with_schedule(cooperative)
  .with_epilogue(bias(col), gelu, per_row_scale(f32))

# `auto` decides for itself: swapped here (M = 32 < 64, N wide), never on sm80
# (CUTLASS 2.x runs a column-major output as the transposed problem, which would
# undo the swap), and left alone for a square problem.
kernel decode_auto = gemm(m = 32, n = 4096, k = 4096)
  .with_types(f16)
  .with_operand_swap(auto)
