# batched GEMM (attention scores) + scale + softmax
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """softmax(Q K^T / sqrt(d)) for 64 heads of 1024 tokens, head dim 128."""

    def __init__(self):
        super().__init__()

    def forward(self, q, k):
        s = torch.bmm(q, k.transpose(1, 2)) / (q.shape[-1] ** 0.5)
        return torch.softmax(s, dim=-1)


batch_heads = 64
seq_len = 1024
head_dim = 128


def get_inputs():
    return [torch.rand(batch_heads, seq_len, head_dim), torch.rand(batch_heads, seq_len, head_dim)]


def get_init_inputs():
    return []
