# transposed 2-D convolution 4x4 stride 2 (upsampling), 128->64, 64x64, batch 32
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """nn.ConvTranspose2d(in=128, out=64, kernel=4, stride=2, padding=1, groups=1)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, groups):
        super().__init__()
        self.conv = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding, groups=groups)

    def forward(self, x):
        return self.conv(x)


batch_size = 32
in_channels = 128
out_channels = 64
kernel_size = 4
stride = 2
padding = 1
groups = 1


def get_inputs():
    return [torch.rand(batch_size, in_channels, 64, 64)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding, groups]
