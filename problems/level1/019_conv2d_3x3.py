# 2-D convolution 3x3, 64->128 channels, 128x128 images, batch 32 (implicit GEMM)
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """nn.Conv2d(in=64, out=128, kernel=3, stride=1, padding=1, groups=1)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, groups):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding, groups=groups)

    def forward(self, x):
        return self.conv(x)


batch_size = 32
in_channels = 64
out_channels = 128
kernel_size = 3
stride = 1
padding = 1
groups = 1


def get_inputs():
    return [torch.rand(batch_size, in_channels, 128, 128)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding, groups]
