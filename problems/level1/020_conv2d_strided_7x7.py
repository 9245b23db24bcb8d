# ResNet-stem 7x7 stride-2 convolution, 3->64, 224x224, batch 64
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """nn.Conv2d(in=3, out=64, kernel=7, stride=2, padding=3, groups=1)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, groups):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding, groups=groups)

    def forward(self, x):
        return self.conv(x)


batch_size = 64
in_channels = 3
out_channels = 64
kernel_size = 7
stride = 2
padding = 3
groups = 1


def get_inputs():
    return [torch.rand(batch_size, in_channels, 224, 224)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding, groups]
