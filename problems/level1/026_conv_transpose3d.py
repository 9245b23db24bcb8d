# transposed 3-D convolution 3x3x3 stride 2, 32->16, 16x32x32, batch 8
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """nn.ConvTranspose3d(in=32, out=16, kernel=3, stride=2, padding=1, groups=1)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, groups):
        super().__init__()
        self.conv = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=stride, padding=padding, groups=groups)

    def forward(self, x):
        return self.conv(x)


batch_size = 8
in_channels = 32
out_channels = 16
kernel_size = 3
stride = 2
padding = 1
groups = 1


def get_inputs():
    return [torch.rand(batch_size, in_channels, 16, 32, 32)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding, groups]
