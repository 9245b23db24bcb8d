# LLaMA-style SwiGLU feed-forward: (silu(x W1) * x W3) W2, 4096 tokens, 4096 -> 11008 -> 4096
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """SwiGLU FFN without biases."""

    def __init__(self, d_model, d_ff):
        super().__init__()
        self.w1 = nn.Linear(d_model, d_ff, bias=False)
        self.w3 = nn.Linear(d_model, d_ff, bias=False)
        self.w2 = nn.Linear(d_ff, d_model, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


tokens = 4096
d_model = 4096
d_ff = 11008


def get_inputs():
    return [torch.rand(tokens, d_model)]


def get_init_inputs():
    return [d_model, d_ff]
