# 1-D convolution kernel 7 over 65536 samples, 64->64 channels, batch 16
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """nn.Conv1d(in=64, out=64, kernel=7, stride=1, padding=3, groups=1)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, groups):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, stride=stride, padding=padding, groups=groups)

    def forward(self, x):
        return self.conv(x)


batch_size = 16
in_channels = 64
out_channels = 64
kernel_size = 7
stride = 1
padding = 3
groups = 1


def get_inputs():
    return [torch.rand(batch_size, in_channels, 65536)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding, groups]
