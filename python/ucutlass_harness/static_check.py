"""Static checks on a candidate's source, in the spirit of KernelBench's checker.

Errors reject a candidate (each becomes a gaming signal); warnings are reported.
Python structure is checked on the AST, so words inside strings or comments
(CUDA sources are strings) do not trigger Python rules; the presence rules
(`load_inline`, `cute::`) look at the raw text because that is where the
custom code lives.
"""

import ast
import re
from dataclasses import dataclass, field

TIMER_TARGETS = {
    "time.perf_counter", "time.perf_counter_ns", "time.time", "time.time_ns", "time.monotonic",
    "time.process_time", "torch.cuda.synchronize", "torch.cuda.Event", "torch.cuda.Event.record",
    "torch.cuda.Event.elapsed_time", "torch.cuda.Event.synchronize", "torch.cuda.current_stream",
    "torch.cuda.Stream.synchronize", "torch.allclose", "torch.equal", "torch.testing.assert_close",
    "torch.Tensor.__eq__", "torch.Tensor.allclose", "torch.Tensor.cpu", "torch.Tensor.item",
}
THREAD_MODULES = {"threading", "_thread", "multiprocessing", "concurrent", "concurrent.futures", "asyncio"}
TENSOR_SUBCLASS_HOOKS = {"__torch_function__", "__torch_dispatch__", "_make_subclass",
                         "_make_wrapper_subclass", "as_subclass"}
TORCH_COMPUTE_CALLS = {
    "matmul", "mm", "bmm", "addmm", "baddbmm", "einsum", "linear", "conv1d", "conv2d", "conv3d",
    "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "softmax", "log_softmax",
    "layer_norm", "group_norm", "batch_norm", "scaled_dot_product_attention", "relu", "gelu",
    "silu", "sigmoid", "tanh", "logsumexp", "sum", "mean", "max", "min", "exp",
}
DOWNCAST_ATTRS = {"half", "bfloat16"}
DOWNCAST_DTYPES = {"float16", "half", "bfloat16", "float8_e4m3fn", "float8_e5m2"}


@dataclass
class StaticReport:
    errors: list = field(default_factory=list)    # (rule, message)
    warnings: list = field(default_factory=list)  # (rule, message)

    def to_json(self):
        return {"errors": [{"rule": r, "message": m} for r, m in self.errors],
                "warnings": [{"rule": r, "message": m} for r, m in self.warnings]}


def dotted_name(node):
    """'torch.cuda.synchronize' for an Attribute/Name chain, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


class _Visitor(ast.NodeVisitor):
    def __init__(self, report, reference_class):
        self.report = report
        self.reference_class = reference_class
        self.in_forward = 0

    def err(self, rule, node, message):
        self.report.errors.append((rule, f"line {getattr(node, 'lineno', '?')}: {message}"))

    def warn(self, rule, node, message):
        self.report.warnings.append((rule, f"line {getattr(node, 'lineno', '?')}: {message}"))

    def visit_Try(self, node):
        self.err("try_except", node, "try/except is forbidden (it hides a fallback path)")
        self.generic_visit(node)

    visit_TryStar = visit_Try

    def visit_Pass(self, node):
        self.err("pass_statement", node, "`pass` is forbidden (empty bodies hide skipped work)")

    def visit_Import(self, node):
        for alias in node.names:
            self._check_module(alias.name, node)

    def visit_ImportFrom(self, node):
        if node.module:
            self._check_module(node.module, node)

    def _check_module(self, name, node):
        root = name.split(".")[0]
        if name in THREAD_MODULES or root in THREAD_MODULES:
            self.err("threading", node, f"import of {name} (threads/processes are forbidden)")

    def _check_assign_target(self, target, node):
        name = dotted_name(target)
        if not name:
            return
        if name in TIMER_TARGETS or name.startswith(("time.", "torch.cuda.", "torch.Tensor.")):
            self.err("timer_patch", node, f"assignment to {name} (monkey-patching timing/sync/compare)")

    def visit_Assign(self, node):
        for t in node.targets:
            self._check_assign_target(t, node)
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        self._check_assign_target(node.target, node)
        self.generic_visit(node)

    def visit_ClassDef(self, node):
        for base in node.bases:
            name = dotted_name(base) or ""
            if name in ("torch.Tensor", "Tensor", "torch._C.TensorBase", "torch._C._TensorBase"):
                self.err("tensor_subclass", node, f"class {node.name} subclasses {name}")
            if node.name == "ModelNew" and name.split(".")[-1] == self.reference_class:
                self.err("subclass_reference", node, f"ModelNew subclasses the reference {name}")
        for item in node.body:
            if isinstance(item, ast.FunctionDef) and item.name in TENSOR_SUBCLASS_HOOKS:
                self.err("tensor_subclass", item, f"{item.name} defined (tensor subclass / dispatch hook)")
        self.generic_visit(node)

    def visit_FunctionDef(self, node):
        if node.name == "forward":
            self.in_forward += 1
            self.generic_visit(node)
            self.in_forward -= 1
        else:
            self.generic_visit(node)

    def visit_Call(self, node):
        name = dotted_name(node.func) or ""
        last = node.func.attr if isinstance(node.func, ast.Attribute) else name.split(".")[-1]
        if name in ("setattr",) and node.args:
            target = dotted_name(node.args[0]) or ""
            if target in ("time", "torch.cuda", "torch", "torch.cuda.Event", "torch.Tensor"):
                self.err("timer_patch", node, f"setattr on {target}")
        if last in TENSOR_SUBCLASS_HOOKS:
            self.err("tensor_subclass", node, f"call to {name}")
        if name.startswith(("threading.", "multiprocessing.", "_thread.", "concurrent.")):
            self.err("threading", node, f"call to {name}")
        if "Stream" in last and name.startswith("torch.cuda"):
            self.warn("cuda_stream", node, f"{name}: work on other streams is outside the timed stream")
        if last in ("stream", "set_stream") and name.startswith("torch.cuda"):
            self.warn("cuda_stream", node, f"{name}")
        if self.in_forward:
            root = name.split(".")[0]
            if root in ("torch", "F") and last in TORCH_COMPUTE_CALLS:
                self.warn("torch_compute", node, f"{name} in forward (PyTorch compute op)")
            if last in DOWNCAST_ATTRS:
                self.warn("precision_downcast", node, f".{last}() in forward")
            for arg in list(node.args) + [k.value for k in node.keywords]:
                dt = dotted_name(arg) or ""
                if dt.startswith("torch.") and dt.split(".")[-1] in DOWNCAST_DTYPES:
                    self.warn("precision_downcast", node, f"{dt} in forward")
        self.generic_visit(node)

    def visit_BinOp(self, node):
        if self.in_forward and isinstance(node.op, ast.MatMult):
            self.warn("torch_compute", node, "`@` in forward (PyTorch matmul)")
        self.generic_visit(node)


# Text that turns f32 data into fp16 somewhere in a solution, Python or the C++/CUDA in its strings.
# KernelBench's static checker forbids such fp32 -> fp16 downgrades in fp32 problems (its
# precision_downgrade rule) and leaves bf16 alone; these patterns are ours, written to the same rule.
FP16_DOWNCAST_PATTERNS = [
    (re.compile(r"\.half\s*\("), ".half()"),
    (re.compile(r"\.to\s*\(\s*(dtype\s*=\s*)?torch\.(float16|half)\b"), ".to(torch.float16)"),
    (re.compile(r"dtype\s*=\s*torch\.(float16|half)\b"), "dtype=torch.float16"),
    (re.compile(r"\b__float2half\w*\s*\("), "__float2half"),
    (re.compile(r"\b(__half2?|half2)\b"), "CUDA half types"),
    (re.compile(r"\bcutlass::half_t\b"), "cutlass::half_t"),
    (re.compile(r"\bCUDA_R_16F\b|\bCUBLAS_COMPUTE_32F_FAST_16F\b"), "cuBLAS fp16 types"),
]


def fp16_downcasts(source):
    """The fp32 -> fp16 patterns in a source, as "line N: what" (empty when there are none). Python
    comment lines are skipped; everything else counts, strings included (that is where CUDA lives)."""
    found = []
    for number, line in enumerate(source.splitlines(), 1):
        if line.lstrip().startswith("#"):
            continue
        for pattern, what in FP16_DOWNCAST_PATTERNS:
            if pattern.search(line):
                found.append(f"line {number}: {what}")
                break
    return found


def check_source(source, backend="cuda", reference_class="Model", precision=None):
    """Check candidate source text; backend is "cuda", "cutlass" or "any". With precision "fp32" (the
    problem's outputs are float32), an fp32 -> fp16 downgrade is an error (fp16_downcast)."""
    report = StaticReport()
    try:
        tree = ast.parse(source)
    except SyntaxError as e:
        report.errors.append(("syntax", f"line {e.lineno}: {e.msg}"))
        return report
    _Visitor(report, reference_class).visit(tree)
    if not any(isinstance(n, ast.ClassDef) and n.name == "ModelNew" for n in ast.walk(tree)):
        report.errors.append(("no_modelnew", "no class ModelNew defined"))
    if backend in ("cuda", "cutlass") and "load_inline" not in source and "cpp_extension" not in source:
        report.errors.append(("no_custom_code", "source uses neither load_inline nor cpp_extension"))
    if backend == "cutlass" and "cute::" not in source and "cutlass::" not in source:
        report.errors.append(("no_cutlass", "cutlass backend: source mentions neither cute:: nor cutlass::"))
    if precision == "fp32":
        for where in fp16_downcasts(source):
            report.errors.append(("fp16_downcast", f"{where} (an fp32 problem may not run in fp16)"))
    return report
