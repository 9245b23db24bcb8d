#pragma once
#include "support/source_file.h"

namespace ucutlass::ir {

// A setting with its origin. `is_auto` means the program asked for `auto` or
// said nothing; resolve_auto() replaces the value and keeps the flag, so
// diagnostics can say "auto chose ...".
template <class T>
struct Setting {
  T value{};
  Span span;
  bool is_auto = true;
};

// resolve_auto's one way to fill a setting: only when the program left it `auto`.
template <class T>
void choose(Setting<T>& s, T v) {
  if (s.is_auto) s.value = v;
}

}  // namespace ucutlass::ir
