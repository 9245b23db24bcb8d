#include "solution/bias_argument.h"

namespace ucutlass::solution {

namespace {

// The vector as the kernel takes it: itself when the trace shows it flat and dense (a Linear's bias),
// else a flat view. A view is a PyTorch call on every forward, host time the GPU waits for.
std::string flat(const graph::Tensor& t) {
  const bool flat_dense = t.shape.size() == 1 && t.stride.size() == 1 && t.stride[0] == 1;
  return flat_dense ? t.id : t.id + ".reshape(-1)";
}

}  // namespace

std::string bias_argument(const graph::OpGraph& g, int bias, int bias2) {
  const std::string b = flat(g.tensors[bias]);
  if (bias2 < 0) return b;
  return "(" + b + " + " + flat(g.tensors[bias2]) + ")";
}

}  // namespace ucutlass::solution
