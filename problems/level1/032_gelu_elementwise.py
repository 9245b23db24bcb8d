# element-wise GELU over 16384 x 16384 (pure bandwidth)
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """F.gelu(x)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.gelu(x)


batch_size = 16384
dim = 16384


def get_inputs():
    return [torch.rand(batch_size, dim)]


def get_init_inputs():
    return []
