# depthwise 3x3 convolution, 512 channels, 64x64, batch 32 (groups = channels)
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """nn.Conv2d(in=512, out=512, kernel=3, stride=1, padding=1, groups=512)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, groups):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding, groups=groups)

    def forward(self, x):
        return self.conv(x)


batch_size = 32
in_channels = 512
out_channels = 512
kernel_size = 3
stride = 1
padding = 1
groups = 512


def get_inputs():
    return [torch.rand(batch_size, in_channels, 64, 64)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding, groups]
