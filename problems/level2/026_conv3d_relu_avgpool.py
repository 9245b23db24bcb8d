# Conv3d + ReLU + 2x2x2 average pool
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """Conv3d 3x3x3, ReLU, average pool 2."""

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size, padding=1)

    def forward(self, x):
        return F.avg_pool3d(torch.relu(self.conv(x)), 2)


batch_size = 8
in_channels = 16
out_channels = 32
depth = 32
height = 64
width = 64
kernel_size = 3


def get_inputs():
    return [torch.rand(batch_size, in_channels, depth, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
