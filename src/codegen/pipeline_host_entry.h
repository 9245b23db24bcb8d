#pragma once
// Host code of a pipeline (ir/pipeline.h) in the program header: a params
// struct of the caller's tensors, the intermediates' offsets in one workspace,
// one GemmParams builder per step, and NAME_workspace_size / NAME_run, which
// launch the steps' NAME_run entries in order on one stream.
#include <string>
#include <vector>

#include "ir/gemm_kernel.h"

namespace ucutlass::codegen {

// Emitted after every kernel's host entry, in the program namespace.
std::string emit_pipeline_host_entry(const ir::Program& p, const ir::Pipeline& pipe);

// Intermediates start at multiples of this many bytes in the workspace (and
// the workspace itself must be this aligned): enough for any TMA or vector access.
constexpr int kPipelineTensorAlignment = 256;

// Bytes of the intermediates and each one's offset (indexed by tensor; -1 for
// inputs and outputs). An intermediate lives from the step that writes it to
// its last reader; one whose life does not overlap another's may reuse its
// memory, so a long chain needs about two intermediates' worth, not all of them.
struct PipelineLayout {
  std::vector<long long> offset;
  long long bytes = 0;
};
PipelineLayout pipeline_layout(const ir::Program& p, const ir::Pipeline& pipe);

}  // namespace ucutlass::codegen
