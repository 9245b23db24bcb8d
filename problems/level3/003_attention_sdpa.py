# multi-head attention core via scaled_dot_product_attention, 16 x 32 heads x 1024 x 128
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """softmax(Q K^T / sqrt(d)) V through F.scaled_dot_product_attention (non-causal)."""

    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v)


batch_size = 16
heads = 32
seq_len = 1024
head_dim = 128


def get_inputs():
    shape = (batch_size, heads, seq_len, head_dim)
    return [torch.rand(shape), torch.rand(shape), torch.rand(shape)]


def get_init_inputs():
    return []
