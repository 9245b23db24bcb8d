// libFuzzer target over the whole front end and the emitter: any input must
// end in diagnostics or emitted code, never a crash, hang, leak or sanitizer
// report. Seed corpus: examples/*.dsl.
#include <cstddef>
#include <cstdint>
#include <string>

#include "codegen/emit.h"
#include "compiler/frontend.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ucutlass::FrontendResult r =
      ucutlass::run_frontend("fuzz.dsl", std::string(reinterpret_cast<const char*>(data), size));
  std::string text = r.diags->render();
  if (r.ok) {
    // A validated program the emitter rejects is a bug: let the exception escape.
    auto files = ucutlass::codegen::emit_program(r.program, r.hash);
    (void)files;
  }
  return 0;
}
