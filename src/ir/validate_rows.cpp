#include "ir/validate_rows.h"

#include <algorithm>
#include <string>

#include "ir/gemm_settings_check.h"

namespace ucutlass::ir {

namespace {

std::string str(int64_t v) { return std::to_string(v); }
std::string tname(DType t) { return std::string(name_of(t)); }
int bytes_of(DType t) { return std::max(bits_of(t) / 8, 1); }
bool row_type(DType t) { return t == DType::f32 || t == DType::f16 || t == DType::bf16; }

const char* kRowSettings =
    "row kernels take with_arch(sm90a | sm80), with_types(a = ..., d = ...) and "
    "with_rows(access, threads, items, splits)";

// The bytes of one element of a vector load. A vector of a wider output is stored in 16-byte pieces
// (8 bf16 in, 8 f32 out: two stores), so only the input bounds the access.
int load_bytes(const GemmKernel& k) { return bytes_of(k.a.value); }

class RowValidator {
 public:
  RowValidator(const GemmKernel& k, Diagnostics& d) : k_(k), r_(*k.rows), d_(d), errors_before_(d.error_count()) {}

  bool run() {
    check_foreign_settings();
    check_problem();
    if (check_types()) check_levers();
    return d_.error_count() == errors_before_;
  }

 private:
  void error(Span s, std::string msg, std::string legal = {}, std::string hint = {}) {
    d_.error(s, std::move(msg), std::move(legal), std::move(hint));
  }

  void check_foreign_settings() {
    reject_gemm_settings(k_, d_, "a row kernel (" + std::string(name_of(r_.op)) + " has no matrix product)",
                         kRowSettings, "the row kernel's levers are with_rows(access, threads, items, splits)");
    for (const EpilogueStep& s : k_.epilogue)
      error(s.span, "row kernels have no epilogue: " + std::string(name_of(r_.op)) + " is the whole kernel",
            kRowSettings, "apply element-wise steps after the kernel");
    if (!k_.alpha.is_auto || !k_.beta.is_auto)
      error(k_.alpha.is_auto ? k_.beta.span : k_.alpha.span, "row kernels have no alpha or beta", kRowSettings);
  }

  void check_problem() {
    if (r_.op == RowOp::groupnorm) {
      if (r_.groups < 1 || r_.rows % r_.groups != 0)
        error(r_.groups_span,
              "rows = " + str(r_.rows) + " is not a whole number of samples of groups = " + str(r_.groups) +
                  " (row r is group r % groups of sample r / groups)",
              "groups dividing rows");
      if (r_.channel_span < 1 || r_.length % r_.channel_span != 0)
        error(r_.channel_span_span,
              "length = " + str(r_.length) + " is not a whole number of channels of channel_span = " +
                  str(r_.channel_span) + " elements",
              "channel_span (H*W of one channel) dividing length");
    }
    if (row_op_normalizes(r_.op) && !(r_.eps > 0))
      error(r_.eps_span, "eps must be positive: it keeps 1 / sqrt(var + eps) finite on a constant row",
            "a number such as 1e-5");
  }

  bool check_types() {
    bool ok = true;
    if (!row_type(k_.a.value)) {
      error(k_.a.span, "row kernels cannot read " + tname(k_.a.value), "a = f32, f16 or bf16");
      ok = false;
    }
    if (r_.op == RowOp::argmax) {
      if (k_.d.value != k_.a.value)
        error(k_.d.span, "argmax writes int64 indices (torch.argmax's dtype); d does not apply",
              "with_types(a = " + tname(k_.a.value) + ")");
    } else if (!row_type(k_.d.value)) {
      error(k_.d.span, "row kernels cannot write " + tname(k_.d.value), "d = f32, f16 or bf16");
      ok = false;
    }
    if (!k_.b.is_auto && k_.b.value != k_.a.value)
      error(k_.b.span, "row kernels read one tensor, a; b does not apply", "with_types(a = ..., d = ...)");
    if (!k_.c.is_auto && k_.c.value != DType::void_)
      error(k_.c.span, "row kernels read one tensor, a; c does not apply", "with_types(a = ..., d = ...)");
    if (k_.acc.value != DType::f32)
      error(k_.acc.span, "row kernels compute in f32, not " + tname(k_.acc.value), "acc = f32");
    return ok;
  }

  void check_levers() {
    const RowLevers& l = k_.row_levers;
    const int access = l.access.value, threads = l.threads.value, items = l.items.value, splits = l.splits.value;
    const int max_access = 16 / load_bytes(k_);
    bool ok = true;
    if (access != 1 && access != 2 && access != 4 && access != 8) {
      error(l.access.span, "access = " + str(access) + " is not a vector width the kernel loads", "1, 2, 4 or 8");
      ok = false;
    } else if (access > max_access) {
      error(l.access.span,
            "access = " + str(access) + " elements of " + str(load_bytes(k_)) +
                " bytes is wider than a 16-byte vector load",
            "access up to " + str(max_access), "with_rows(access = " + str(max_access) + ")");
      ok = false;
    } else if (r_.length % access != 0) {
      int fits = access;
      while (r_.length % fits != 0) fits /= 2;
      error(l.access.span,
            "length = " + str(r_.length) + " is not a multiple of access = " + str(access) +
                ": each row starts `length` elements after the last, so its vector loads would be misaligned",
            "an access that divides length: at most " + str(fits) + " here", "with_rows(access = " + str(fits) + ")");
      ok = false;
    }
    if (threads != 128 && threads != 256 && threads != 512 && threads != 1024) {
      error(l.threads.span, "threads = " + str(threads) + " is not a CTA size the kernel is built for",
            "128, 256, 512 or 1024");
      ok = false;
    }
    if (items < 1 || items > 32) {
      error(l.items.span, "items = " + str(items) + " is out of range", "1 to 32 vector loads per thread");
      ok = false;
    } else if (ok && access * items > kRowRegisterValues) {
      error(l.items.span,
            "access x items = " + str(access) + " x " + str(items) + " = " + str(access * items) +
                " values per thread would spill the registers that hold the chunk",
            "access x items <= " + str(kRowRegisterValues), "with_rows(items = " + str(kRowRegisterValues / access) + ")");
      ok = false;
    }
    if (splits < 1 || splits > 1024) {
      error(l.splits.span, "splits = " + str(splits) + " is out of range",
            "1 to 1024 CTAs per row (the second launch combines at most 1024 partials)");
      return;
    }
    if (!ok) return;
    const int64_t chunk = row_chunk(r_.length, splits, access);
    if (chunk * (splits - 1) >= r_.length) {
      error(l.splits.span,
            "splits = " + str(splits) + " leaves the last CTA of each row with no elements (chunks of " + str(chunk) +
                " over length = " + str(r_.length) + ")",
            "splits such that every chunk holds elements: at most " + str((r_.length + access - 1) / access));
      return;
    }
    const int64_t holds = int64_t{threads} * access * items;
    if (chunk > holds) {
      const int64_t need_items = (chunk + int64_t{threads} * access - 1) / (int64_t{threads} * access);
      error(l.items.span,
            "a chunk of " + str(chunk) + " elements (length " + str(r_.length) + " / splits " + str(splits) +
                ") does not fit the threads x access x items = " + str(threads) + " x " + str(access) + " x " +
                str(items) + " = " + str(holds) + " the CTA holds in registers",
            "chunk <= threads x access x items",
            need_items * access <= kRowRegisterValues ? "with_rows(items = " + str(need_items) + ")"
                                                      : "more threads or more splits");
    }
  }

  const GemmKernel& k_;
  const RowProblem& r_;
  Diagnostics& d_;
  size_t errors_before_;
};

}  // namespace

const char* row_op_runtime_name(RowOp op) {
  switch (op) {
    case RowOp::softmax: return "ucutlass_rows::RowOp::softmax";
    case RowOp::log_softmax: return "ucutlass_rows::RowOp::log_softmax";
    case RowOp::layernorm: return "ucutlass_rows::RowOp::layernorm";
    case RowOp::groupnorm: return "ucutlass_rows::RowOp::groupnorm";
    case RowOp::logsumexp: return "ucutlass_rows::RowOp::logsumexp";
    case RowOp::sum: return "ucutlass_rows::RowOp::sum";
    case RowOp::mean: return "ucutlass_rows::RowOp::mean";
    case RowOp::max: return "ucutlass_rows::RowOp::amax";
    case RowOp::argmax: return "ucutlass_rows::RowOp::argmax";
  }
  return "?";
}

void resolve_rows(GemmKernel& k) {
  const RowProblem& r = *k.rows;
  if (k.b.is_auto) k.b.value = k.a.value;
  if (k.d.is_auto) k.d.value = k.a.value;
  if (k.c.is_auto) k.c.value = DType::void_;
  choose(k.acc, DType::f32);
  choose(k.arch, Arch::sm90a);
  RowLevers& l = k.row_levers;
  if (l.access.is_auto) {
    l.access.value = 16 / load_bytes(k);
    while (l.access.value > 1 && r.length % l.access.value != 0) l.access.value /= 2;
  }
  const int access = std::max(l.access.value, 1);
  const int64_t vectors = (r.length + access - 1) / access;
  if (l.threads.is_auto) {
    // About eight loads in flight per thread, within the legal CTA sizes.
    l.threads.value = 128;
    while (l.threads.value < 512 && int64_t{l.threads.value} * 8 < vectors) l.threads.value *= 2;
  }
  const int64_t cta_width = int64_t{std::max(l.threads.value, 1)} * access;
  if (l.splits.is_auto) {
    // The chunk must fit the items given, or as many as the registers hold.
    const int items = l.items.is_auto ? std::min(std::max(kRowRegisterValues / access, 1), 32) : std::max(l.items.value, 1);
    int s = 1;
    while (s < 1024 && row_chunk(r.length, s, access) > cta_width * items) ++s;
    // Too few rows to give each SM two CTAs: cut rows further while a chunk still spans the CTA.
    while (s < 1024 && r.rows * s < 2 * kRowAutoSms && row_chunk(r.length, 2 * s, access) >= cta_width) s *= 2;
    l.splits.value = s;
  }
  if (l.items.is_auto) {
    const int64_t chunk = row_chunk(r.length, std::max(l.splits.value, 1), access);
    l.items.value = static_cast<int>(std::clamp<int64_t>((chunk + cta_width - 1) / cta_width, 1, 32));
  }
}

bool validate_rows(const GemmKernel& k, Diagnostics& diags) { return RowValidator(k, diags).run(); }

}  // namespace ucutlass::ir
