# Reductions fused into the epilogue: each step reduces the value so far (x)
# along every row (row_sum, row_max: one value per row, an [M] vector) or every
# column (col_sum, col_max: an [N] vector) into an output the caller passes,
# and hands x on unchanged. Outputs are f32 unless a type is given.
#
# A softmax tail: scaled attention scores, the max of each row (to check that
# exp cannot overflow, or to rescale later), D = exp(scores) and the sum of each
# row of D, so softmax = D / row_sum[..., None] without a second pass over the
# scores. Batched: every batch gets its own vectors ([batch, M]).
kernel softmax_scores = gemm(m = 2048, n = 2048, k = 128, batch = 8)
  .with_types(bf16)
  .with_epilogue(scale(0.08838834764831845), row_max, custom("exp(x)"), row_sum)

# Statistics of a linear layer's output per feature (column), as a batch norm
# or a quantizer's calibration needs them: the sum and the max of every column,
# the max kept in bf16.
kernel linear_column_stats = gemm(m = 8192, n = 1024, k = 1024)
  .with_types(bf16)
  .with_epilogue(bias(col), col_sum, col_max(bf16))
