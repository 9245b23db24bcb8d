#include "solution/bias_argument.h"

namespace ucutlass::solution {

std::string bias_argument(const graph::OpGraph& g, int bias, int bias2) {
  const std::string b = g.tensors[bias].id + ".reshape(-1)";
  if (bias2 < 0) return b;
  return "(" + b + " + " + g.tensors[bias2].id + ".reshape(-1))";
}

}  // namespace ucutlass::solution
