# A tiny output with a huge reduction: 256 x 256 is only four 128x128 tiles,
# which would leave 128 of the 132 SMs idle. split_k(32) cuts K into 32 slices
# so 128 CTAs work at once and a reduction adds the partial tiles. Split-K and
# stream-K need the cooperative schedule.
kernel large_k = gemm(m = 256, n = 256, k = 524288)
  .with_types(f32)
  .with_math(tf32)
  .with_tile(128, 128, 32)
  .with_cluster(1, 1, 1)
  .with_schedule(cooperative)
  .with_scheduler(split_k(32))
