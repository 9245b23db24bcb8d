# small-M Linear + bias + ReLU: 128x16384x16384 (split-K territory)
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """nn.Linear followed by:         y = torch.relu(y)"""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        y = self.linear(x)
        y = torch.relu(y)
        return y


batch_size = 128
in_features = 16384
out_features = 16384


def get_inputs():
    return [torch.rand(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
