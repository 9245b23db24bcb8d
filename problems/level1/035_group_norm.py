# group norm, 32 groups over 256 channels, 64x64, batch 32
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """nn.GroupNorm(num_groups, channels)."""

    def __init__(self, num_groups, channels):
        super().__init__()
        self.norm = nn.GroupNorm(num_groups, channels)

    def forward(self, x):
        return self.norm(x)


batch_size = 32
channels = 256
num_groups = 32
height = 64
width = 64


def get_inputs():
    return [torch.rand(batch_size, channels, height, width)]


def get_init_inputs():
    return [num_groups, channels]
