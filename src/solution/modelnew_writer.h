#pragma once
// The KernelBench solution of a problem: a self-contained Python file with
// `class ModelNew`, whose forward runs the matched GEMMs (with their fused
// epilogues) as CUTLASS kernels and every other node as the ATen op it was.
//
// * Parameters: the problem's own `class Model` is copied with its forward
//   replaced, so the constructor signature and the order of parameter
//   creation are the reference's by construction (KernelBench seeds before
//   building each model and compares outputs, so the weights must match).
// * Kernels: the emitted CUTLASS header + C API (.cu) and the thin torch
//   binding (.cpp) are embedded as strings, written to a folder on import and
//   built with torch.utils.cpp_extension.load with the program's -gencode
//   flags (sm_90a for Hopper kernels) and the CUTLASS include paths. Unlike
//   load_inline, `load` keeps torch headers out of the CUTLASS translation
//   unit (141 s vs ~45 s per build, shared/facts/gpu.md).
// * KernelBench's static rules hold: `cpp_extension` and `cutlass::` appear;
//   no try/except, no `pass`, no threads.
#include <string>
#include <vector>

#include "codegen/emit.h"
#include "graph/op_graph.h"
#include "ir/gemm_kernel.h"
#include "map/dsl_writer.h"
#include "map/gemm_match.h"

namespace ucutlass::solution {

struct SolutionInput {
  std::string problem_source;  // the problem file's text
  const graph::OpGraph* graph = nullptr;
  std::vector<map::GemmMatch> gemms;       // kernels, in the program's order
  std::vector<map::KernelConfig> configs;  // one per gemm
  std::string hash;                        // program hash
  std::vector<codegen::EmittedFile> files; // emit_program's output
  std::vector<std::string> arch_flags;     // build::arch_flags(program)
  std::string cutlass_dir;                 // default include root; $UCUTLASS_CUTLASS_DIR overrides at import
  std::string dsl;                         // the program, quoted in the header comment
};

// The Python source, or "" with `err` set (a constant lifted into the graph,
// a forward argument that is not a tensor, no class Model in the source).
std::string write_modelnew(const SolutionInput& in, std::string* err);

// A graph value (args/kwargs JSON) as a Python expression; tensors by name.
std::string python_value(const nlohmann::json& v, const graph::OpGraph& g);

// The whole way from matched kernels and configurations to a solution: the
// DSL program, the front end (which must accept it), emission, the writer.
struct SolutionFiles {
  std::string dsl, hash, modelnew;
  std::string error;  // "" when modelnew is written
};
SolutionFiles make_solution(const std::string& problem_source, const graph::OpGraph& g, const std::vector<map::GemmMatch>& gemms,
                            const std::vector<map::KernelConfig>& configs, const std::string& cutlass_dir);

}  // namespace ucutlass::solution
