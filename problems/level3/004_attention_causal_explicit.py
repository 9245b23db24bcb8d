# causal attention written out: matmul, mask, softmax, matmul (8 x 16 heads x 2048 x 64)
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """Causal attention with an explicit upper-triangular mask."""

    def __init__(self, seq_len):
        super().__init__()
        self.register_buffer("mask", torch.triu(torch.ones(seq_len, seq_len, dtype=torch.bool), diagonal=1))

    def forward(self, q, k, v):
        s = torch.matmul(q, k.transpose(-2, -1)) / (q.shape[-1] ** 0.5)
        s = s.masked_fill(self.mask, float("-inf"))
        return torch.matmul(torch.softmax(s, dim=-1), v)


batch_size = 8
heads = 16
seq_len = 2048
head_dim = 64


def get_inputs():
    shape = (batch_size, heads, seq_len, head_dim)
    return [torch.rand(shape), torch.rand(shape), torch.rand(shape)]


def get_init_inputs():
    return [seq_len]
