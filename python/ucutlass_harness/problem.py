"""Reading KernelBench-format problem files and candidate solution files.

`describe_problem` works on the AST only (no torch, nothing executed);
`load_module` executes a file as a fresh module (needs whatever it imports).
"""

import ast
import importlib.util
import itertools
import os
import re
import sys

from . import tolerance

_counter = itertools.count()


class ProblemError(Exception):
    """A problem or solution file the harness cannot use (the user's fault)."""


def problem_id_from_name(path):
    """KernelBench problem id: the integer prefix of the file name, else None."""
    m = re.match(r"^(\d+)_", os.path.basename(path))
    return int(m.group(1)) if m else None


def _literal(node):
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def describe_problem(path):
    """Static description of a problem file: names, constants, tolerance override."""
    if not os.path.isfile(path):
        raise ProblemError(f"{path}: no such file")
    with open(path, encoding="utf-8") as f:
        source = f.read()
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as e:
        raise ProblemError(f"{path}:{e.lineno}: syntax error: {e.msg}") from e
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    constants = {}
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        target, value = node.targets[0], _literal(node.value)
        if isinstance(target, ast.Name):
            pairs = [(target.id, value)]
        elif isinstance(target, ast.Tuple) and isinstance(value, tuple) and len(value) == len(target.elts):
            pairs = [(t.id, v) for t, v in zip(target.elts, value) if isinstance(t, ast.Name)]
        else:
            pairs = []
        for name, v in pairs:
            if isinstance(v, (int, float, bool, str, tuple, list)):
                constants[name] = list(v) if isinstance(v, tuple) else v
    missing = [n for n in ("get_inputs", "get_init_inputs") if n not in functions]
    if "Model" not in classes:
        missing.insert(0, "class Model")
    if missing:
        raise ProblemError(f"{path}: not a KernelBench problem file (missing {', '.join(missing)})")
    forward_args = []
    for item in classes["Model"].body:
        if isinstance(item, ast.FunctionDef) and item.name == "forward":
            forward_args = [a.arg for a in item.args.args[1:]]
    doc = ast.get_docstring(tree) or ""
    header = []
    for line in source.splitlines():
        if line.startswith("#"):
            header.append(line.lstrip("#").strip())
        elif line.strip():
            break
    return {
        "name": os.path.splitext(os.path.basename(path))[0],
        "file": path,
        "problem_id": problem_id_from_name(path),
        "constants": constants,
        "forward_args": forward_args,
        "description": " ".join(h for h in header if not h.startswith("ucutlass:")) or doc.split("\n")[0],
        "tolerance_override": tolerance.parse_override(source),
    }


def load_module(path, prefix):
    """Execute `path` as a new module named uniquely; ProblemError on failure to find it."""
    if not os.path.isfile(path):
        raise ProblemError(f"{path}: no such file")
    name = f"_ucutlass_{prefix}_{next(_counter)}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ProblemError(f"{path}: cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def list_problems(directory):
    """Problem files of a directory (recursively), sorted by (subfolder, problem id, name)."""
    if not os.path.isdir(directory):
        raise ProblemError(f"{directory}: not a directory")
    found = []
    for root, _, files in os.walk(directory):
        for f in files:
            if f.endswith(".py") and not f.startswith("_"):
                found.append(os.path.join(root, f))

    def key(p):
        pid = problem_id_from_name(p)
        return (os.path.dirname(p), pid if pid is not None else 1 << 30, os.path.basename(p))

    return sorted(found, key=key)
