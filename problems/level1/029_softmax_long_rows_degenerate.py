# DEGENERATE: softmax over rows of 1,048,576: every output ~1e-6, under atol 1e-4, so an all-zero output passes allclose
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """torch.softmax(x, dim=1)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.softmax(x, dim=1)


batch_size = 64
dim = 1048576


def get_inputs():
    return [torch.rand(batch_size, dim)]


def get_init_inputs():
    return []
