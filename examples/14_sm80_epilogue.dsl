# sm80 (CUTLASS 2.x) fuses alpha, beta and one element-wise step: any activation,
# including those CUTLASS lacks (mish, elu, softplus: our own functors), or one
# step with a constant such as scale(2), min(6). Vectors, aux tensors, custom
# expressions and chains need with_arch(sm90a).
kernel ampere_mish = gemm(m = 2048, n = 2048, k = 1024)
  .with_arch(sm80)
  .with_types(f16)
  .with_epilogue(beta(1.0), mish)
