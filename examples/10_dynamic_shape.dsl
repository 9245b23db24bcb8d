# Extents left `dynamic` are given at run time, so one kernel serves many
# shapes; alignment is then checked by the host entry when it runs instead of
# by `ucutlass check`.
kernel any_m = gemm(m = dynamic, n = 4096, k = 4096)
  .with_types(f16)
  .with_tile(64, 128, 64)
  .with_schedule(pingpong)
