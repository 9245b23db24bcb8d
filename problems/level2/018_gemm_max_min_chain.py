# Linear + max over rows minus min over rows (two reductions)
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """nn.Linear followed by:         y = torch.max(y, dim=1, keepdim=True)[0] - torch.min(y, dim=1, keepdim=True)[0]"""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        y = self.linear(x)
        y = torch.max(y, dim=1, keepdim=True)[0] - torch.min(y, dim=1, keepdim=True)[0]
        return y


batch_size = 1024
in_features = 8192
out_features = 8192


def get_inputs():
    return [torch.rand(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
