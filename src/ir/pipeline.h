#pragma once
// A pipeline: kernels of the program run in order on one stream, with named
// tensors between them. Inputs come from the caller, outputs go back to it,
// and every other tensor a step writes is an intermediate the pipeline's host
// entry places in its workspace.
//
//   pipeline mlp = inputs(x, w1, b1, w2, b2)
//     .up(a = x, b = w1, bias = b1, d = h)
//     .down(a = h, b = w2, bias = b2, d = y)
//     .outputs(y)
//   ==> tensors x w1 b1 w2 b2 (inputs), h (intermediate, written by step 0), y (output)
//
// Lowering (lower_pipeline.h) resolves names and checks the data flow; the
// shapes, element types and layouts the bindings imply are checked after
// resolve_auto (validate_pipeline.h), when every kernel setting is final.
#include <cstdint>
#include <string>
#include <vector>

#include "ir/types.h"
#include "support/source_file.h"

namespace ucutlass::ir {

struct GemmKernel;
struct Program;

struct PipelineTensor {
  enum class Role { input, intermediate, output };
  std::string name;
  Span span;        // its name in inputs(...), or the binding that writes it
  Role role = Role::input;
  int producer = -1;  // the step that writes it; -1 for inputs
};

// One operand of a step's kernel bound to a tensor: `a = x`.
struct PipelineBinding {
  enum class Operand { a, b, c, d, bias, extra };
  Operand operand = Operand::a;
  int extra = -1;      // index into the kernel's extras, for Operand::extra
  bool writes = false; // D, and aux_store extras
  int tensor = -1;     // index into Pipeline::tensors
  Span span;           // the whole argument
};

struct PipelineStep {
  int kernel = -1;  // index into Program::kernels
  Span span;        // the call
  std::vector<PipelineBinding> bindings;  // in the order written
};

struct Pipeline {
  std::string name;
  Span span;
  Span name_span;
  std::vector<PipelineTensor> tensors;  // inputs in signature order, then in order of first write
  std::vector<int> inputs;              // tensor indices, signature order
  std::vector<int> outputs;             // tensor indices, order of outputs(...)
  std::vector<PipelineStep> steps;
};

// The operand's name in messages and generated code: "a", "bias", an extra's name.
std::string operand_name(const GemmKernel& k, const PipelineBinding& b);
// "A", "B", "C", "D", "bias", or the extra's name: how messages call an operand.
std::string operand_label(const GemmKernel& k, const PipelineBinding& b);

// What a binding says its tensor is: a matrix [batch, rows, cols] with a
// layout, a vector [length] or a scalar, of one element type.
struct TensorType {
  enum class Kind { matrix, vector, scalar };
  Kind kind = Kind::matrix;
  DType dtype = DType::void_;
  Layout layout = Layout::row;
  int64_t batch = 1, rows = 1, cols = 1;  // vector: rows = length (batch > 1: a reduction's [batch, length])

  bool same_shape(const TensorType& o) const {
    return kind == o.kind && batch == o.batch && rows == o.rows && cols == o.cols;
  }
  int64_t elements() const { return batch * rows * cols; }
  // "[4096, 16384]", "[2, 64, 64]", "[16384]", "[1]"
  std::string shape_text() const;
  // "row-major", "column-major", "a vector", "a scalar"
  std::string layout_text() const;
};

// The type an operand of a resolved kernel has: A [batch, M, K] in layout a,
// B [batch, K, N] in layout b, C and D [batch, M, N] in layout c, the bias
// [N] or [M], extras as their kind says. Batch is 1 for plain GEMMs.
TensorType operand_type(const GemmKernel& k, const PipelineBinding& b);

// A tensor's type as its writer's operand (inputs: their first reader's).
TensorType tensor_type(const Program& p, const Pipeline& pipe, int tensor);
// The operand that fixes a tensor's type, for messages and manifests: "D of up".
std::string tensor_origin(const Program& p, const Pipeline& pipe, int tensor);

}  // namespace ucutlass::ir
