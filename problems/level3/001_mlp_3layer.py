# 3-layer MLP 4096 -> 8192 -> 8192 -> 1024 with ReLU, batch 2048
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """Linear-ReLU-Linear-ReLU-Linear."""

    def __init__(self, d_in, d_hidden, d_out):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.fc2 = nn.Linear(d_hidden, d_hidden)
        self.fc3 = nn.Linear(d_hidden, d_out)

    def forward(self, x):
        return self.fc3(torch.relu(self.fc2(torch.relu(self.fc1(x)))))


batch_size = 2048
d_in = 4096
d_hidden = 8192
d_out = 1024


def get_inputs():
    return [torch.rand(batch_size, d_in)]


def get_init_inputs():
    return [d_in, d_hidden, d_out]
