"""Problem file -> op-graph JSON (format "ucutlass-opgraph", version 1).

Tracing never allocates the problem's real tensors. Construction of the model
and get_inputs() run under `SmallRealMode`, a TorchFunctionMode that sends
every factory call (torch.empty/rand/randn/zeros/...) with no explicit device
to the meta device, except results of at most SMALL_NUMEL elements, which stay
real CPU tensors so small constants keep their values. After construction those
values are recorded and everything is moved to meta, then the model is traced
with torch.export (the exported ATen graph as is, no decompositions;
"dialect": "aten"). If export fails, make_fx with fake tensors is the fallback
(also ATen, post-autograd); the file says which tracer produced it.
"""

import operator

import torch
from torch.overrides import TorchFunctionMode
from torch.utils._device import _device_constructors

from . import problem

SMALL_NUMEL = 64
DTYPE_NAMES = {
    torch.float32: "float32", torch.float16: "float16", torch.bfloat16: "bfloat16", torch.float64: "float64",
    torch.int64: "int64", torch.int32: "int32", torch.bool: "bool", torch.int8: "int8", torch.uint8: "uint8",
    torch.int16: "int16",
}
for _name in ("float8_e4m3fn", "float8_e5m2"):
    if hasattr(torch, _name):
        DTYPE_NAMES[getattr(torch, _name)] = _name


class TraceError(Exception):
    pass


class SmallRealMode(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = dict(kwargs or {})
        if func in _device_constructors() and kwargs.get("device") is None:
            probe_kwargs = dict(kwargs, device="meta")
            probe = func(*args, **probe_kwargs)
            if isinstance(probe, torch.Tensor) and probe.numel() > SMALL_NUMEL:
                return probe
        return func(*args, **kwargs)


def _to_meta_recording(module):
    """Record values of small real tensors by qualified name, then move all to meta."""
    values = {}
    for name, t in list(module.named_parameters()) + list(module.named_buffers()):
        if t.device.type != "meta" and t.numel() <= SMALL_NUMEL:
            values[name] = t.detach().cpu().tolist()
    for mod_name, mod in module.named_modules():
        for attr, val in list(vars(mod).items()):
            if isinstance(val, torch.Tensor) and not isinstance(val, torch.nn.Parameter) and \
                    attr not in mod._buffers:
                qual = f"{mod_name}.{attr}" if mod_name else attr
                if val.device.type != "meta" and val.numel() <= SMALL_NUMEL:
                    values[qual] = val.detach().cpu().tolist()
                setattr(mod, attr, val.to("meta"))
    module.to("meta")
    return values


def _dtype_name(dt):
    return DTYPE_NAMES.get(dt, str(dt).replace("torch.", ""))


def _encode(value, tensor_of):
    if isinstance(value, torch.fx.Node):
        tid = tensor_of.get(value.name)
        if tid is None:
            raise TraceError(f"node {value.name} used before it was defined")
        return {"tensor": tid}
    if isinstance(value, (list, tuple)):
        return [_encode(v, tensor_of) for v in value]
    if isinstance(value, dict):
        return {str(k): _encode(v, tensor_of) for k, v in value.items()}
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return str(value)
        return value
    if isinstance(value, torch.dtype):
        return _dtype_name(value)
    if isinstance(value, (torch.device, torch.layout, torch.memory_format)):
        return str(value)
    return repr(value)


def _fake_values(val):
    if isinstance(val, (tuple, list)):
        return list(val)
    return [val]


def trace_problem(path):
    """Return the op-graph dict of a problem file."""
    desc = problem.describe_problem(path)
    with SmallRealMode():
        prob = problem.load_module(path, "trace")
        torch.manual_seed(42)
        init_args = list(prob.get_init_inputs())
        torch.manual_seed(42)
        model = prob.Model(*init_args)
        inputs = list(prob.get_inputs())
    small_values = _to_meta_recording(model)
    input_names = []
    meta_inputs = []
    for x in inputs:
        meta_inputs.append(x.to("meta") if isinstance(x, torch.Tensor) else x)
    graph, signature, tracer = None, None, "torch.export"
    try:
        ep = torch.export.export(model, tuple(meta_inputs))
        graph, signature = ep.graph, ep.graph_signature
    except Exception as export_error:
        try:
            from torch.fx.experimental.proxy_tensor import make_fx
            params = dict(model.named_parameters())
            params.update(dict(model.named_buffers()))

            def fn(*xs):
                return model(*xs)
            graph = make_fx(fn, tracing_mode="fake")(*meta_inputs).graph
            tracer = "make_fx"
        except Exception as fx_error:
            raise TraceError(f"torch.export failed ({type(export_error).__name__}: {export_error}); "
                             f"make_fx failed ({type(fx_error).__name__}: {fx_error})") from fx_error
    return _graph_to_json(graph, signature, tracer, desc, init_args, small_values)


def _graph_to_json(graph, signature, tracer, desc, init_args, small_values):
    roles, targets = {}, {}
    if signature is not None:
        from torch.export.graph_signature import InputKind
        for spec in signature.input_specs:
            name = spec.arg.name if hasattr(spec.arg, "name") else None
            if name is None:
                continue
            kind = spec.kind
            roles[name] = {InputKind.USER_INPUT: "input", InputKind.PARAMETER: "weight",
                           InputKind.BUFFER: "buffer", InputKind.CONSTANT_TENSOR: "constant"}.get(kind, "input")
            targets[name] = spec.target or name
    tensors, nodes = [], []
    tensor_of = {}
    inputs, weights, outputs = [], [], []

    def new_tensor(name, fake, role, value=None):
        tid = f"t{len(tensors)}"
        rec = {"id": tid, "name": name, "shape": [int(s) for s in fake.shape], "dtype": _dtype_name(fake.dtype),
               "stride": [int(s) for s in fake.stride()], "role": role}
        if value is not None:
            rec["value"] = value
        tensors.append(rec)
        return tid

    producers = {}
    for node in graph.nodes:
        if node.op == "placeholder":
            val = node.meta.get("val")
            if not isinstance(val, torch.Tensor):
                continue
            role = roles.get(node.name, "input")
            target = targets.get(node.name, node.name)
            value = small_values.get(target) if role in ("weight", "buffer", "constant") else None
            tid = new_tensor(target, val, role, value if val.numel() <= SMALL_NUMEL else None)
            tensor_of[node.name] = tid
            (inputs if role == "input" else weights).append(tid)
        elif node.op == "call_function":
            if node.target is operator.getitem:
                src, idx = node.args
                outs = producers.get(src.name)
                if outs is None or idx >= len(outs) or outs[idx] is None:
                    raise TraceError(f"getitem on {src.name}[{idx}] has no tensor")
                tensor_of[node.name] = outs[idx]
                continue
            vals = _fake_values(node.meta.get("val"))
            out_ids = []
            for k, v in enumerate(vals):
                if isinstance(v, torch.Tensor):
                    out_ids.append(new_tensor(node.name if len(vals) == 1 else f"{node.name}.{k}", v,
                                              "intermediate"))
                else:
                    out_ids.append(None)
            producers[node.name] = out_ids
            if len(vals) == 1 and not isinstance(node.meta.get("val"), (tuple, list)):
                tensor_of[node.name] = out_ids[0]
            nodes.append({"id": f"n{len(nodes)}", "op": str(node.target),
                          "inputs": _tensor_inputs(node, tensor_of),
                          "outputs": [o for o in out_ids if o is not None],
                          "args": _encode(list(node.args), tensor_of),
                          "kwargs": _encode(dict(node.kwargs), tensor_of)})
        elif node.op == "output":
            for v in _fake_values(node.args[0]):
                if isinstance(v, torch.fx.Node) and v.name in tensor_of:
                    tid = tensor_of[v.name]
                    outputs.append(tid)
                    tensors[int(tid[1:])]["role"] = "output" if tensors[int(tid[1:])]["role"] == "intermediate" \
                        else tensors[int(tid[1:])]["role"]
        elif node.op == "get_attr":
            raise TraceError(f"unexpected get_attr node {node.target} in an exported graph")
    return {
        "format": "ucutlass-opgraph", "version": 1, "dialect": "aten", "tracer": tracer,
        "problem": {"name": desc["name"], "file": desc["file"], "init_args": _encode(init_args, {})},
        "tensors": tensors, "nodes": nodes, "inputs": inputs, "weights": weights, "outputs": outputs,
    }


def _tensor_inputs(node, tensor_of):
    ids = []
    for a in node.all_input_nodes:
        tid = tensor_of.get(a.name)
        if tid is not None and tid not in ids:
            ids.append(tid)
    return ids
