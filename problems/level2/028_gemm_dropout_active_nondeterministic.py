# DEGENERATE: Linear + Dropout(0.1) in training mode: the reference is random, no candidate can match it
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """nn.Linear followed by:         y = self.dropout(y)"""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.dropout = nn.Dropout(0.1)

    def forward(self, x):
        y = self.linear(x)
        y = self.dropout(y)
        return y


batch_size = 1024
in_features = 8192
out_features = 8192


def get_inputs():
    return [torch.rand(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
