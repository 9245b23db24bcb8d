#include "ir/pipeline.h"

#include "ir/gemm_kernel.h"

namespace ucutlass::ir {

std::string operand_name(const GemmKernel& k, const PipelineBinding& b) {
  switch (b.operand) {
    case PipelineBinding::Operand::a: return "a";
    case PipelineBinding::Operand::b: return "b";
    case PipelineBinding::Operand::c: return "c";
    case PipelineBinding::Operand::d: return "d";
    case PipelineBinding::Operand::bias: return "bias";
    case PipelineBinding::Operand::extra: return k.extras.at(b.extra).name;
  }
  return "?";
}

std::string operand_label(const GemmKernel& k, const PipelineBinding& b) {
  switch (b.operand) {
    case PipelineBinding::Operand::a: return "A";
    case PipelineBinding::Operand::b: return "B";
    case PipelineBinding::Operand::c: return "C";
    case PipelineBinding::Operand::d: return "D";
    default: return operand_name(k, b);
  }
}

std::string TensorType::shape_text() const {
  const std::string lead = batch != 1 ? std::to_string(batch) + ", " : std::string();
  if (kind != Kind::matrix) return "[" + lead + std::to_string(rows) + "]";
  return "[" + lead + std::to_string(rows) + ", " + std::to_string(cols) + "]";
}

std::string TensorType::layout_text() const {
  switch (kind) {
    case Kind::matrix: return layout == Layout::row ? "row-major" : "column-major";
    case Kind::vector: return "a vector";
    case Kind::scalar: return "a scalar";
  }
  return "?";
}

TensorType operand_type(const GemmKernel& k, const PipelineBinding& b) {
  TensorType t;
  t.batch = k.batch.value;
  const int64_t m = k.m.value, n = k.n.value, kk = k.k.value;
  auto matrix = [&](DType dtype, Layout layout, int64_t rows, int64_t cols) {
    t.dtype = dtype;
    t.layout = layout;
    t.rows = rows;
    t.cols = cols;
    return t;
  };
  auto vector = [&](DType dtype, int64_t length) {
    t.kind = TensorType::Kind::vector;
    t.dtype = dtype;
    t.batch = 1;
    t.rows = length;
    return t;
  };
  switch (b.operand) {
    case PipelineBinding::Operand::a: return matrix(k.a.value, k.layout_a.value, m, kk);
    case PipelineBinding::Operand::b: return matrix(k.b.value, k.layout_b.value, kk, n);
    case PipelineBinding::Operand::c: return matrix(k.c.value, k.layout_c.value, m, n);
    case PipelineBinding::Operand::d: return matrix(k.d.value, k.layout_c.value, m, n);
    case PipelineBinding::Operand::bias: {
      const EpilogueStep* s = k.bias_step();
      const DType dtype = s->bias_type == DType::void_ ? k.d.value : s->bias_type;
      return vector(dtype, s->bias == BiasKind::col ? n : m);
    }
    case PipelineBinding::Operand::extra: {
      const EpilogueExtra& x = k.extras.at(b.extra);
      switch (x.kind) {
        case ExtraKind::matrix: return matrix(x.type, k.layout_c.value, m, n);
        // A reduction writes one vector per batch (packed, [batch, length]); vectors read are shared.
        case ExtraKind::col:
        case ExtraKind::row: {
          TensorType v = vector(x.type, x.kind == ExtraKind::col ? n : m);
          if (x.is_output) v.batch = k.batch.value;
          return v;
        }
        case ExtraKind::scalar: {
          TensorType s = vector(x.type, 1);
          s.kind = TensorType::Kind::scalar;
          return s;
        }
      }
    }
  }
  return t;
}

namespace {

// The step and binding that fix a tensor's type: its writer, else its first reader.
std::pair<int, const PipelineBinding*> defining_binding(const Pipeline& pipe, int tensor) {
  const PipelineTensor& t = pipe.tensors.at(tensor);
  for (size_t i = 0; i < pipe.steps.size(); ++i)
    for (const PipelineBinding& b : pipe.steps[i].bindings)
      if (b.tensor == tensor && (t.producer < 0 || b.writes)) return {static_cast<int>(i), &b};
  return {-1, nullptr};
}

}  // namespace

TensorType tensor_type(const Program& p, const Pipeline& pipe, int tensor) {
  auto [step, b] = defining_binding(pipe, tensor);
  if (b == nullptr) return TensorType{};
  return operand_type(p.kernels.at(pipe.steps[step].kernel), *b);
}

std::string tensor_origin(const Program& p, const Pipeline& pipe, int tensor) {
  auto [step, b] = defining_binding(pipe, tensor);
  if (b == nullptr) return "";
  const GemmKernel& k = p.kernels.at(pipe.steps[step].kernel);
  return operand_label(k, *b) + " of " + k.name;
}

}  // namespace ucutlass::ir
