# MLP with bf16 activations and weights: inputs built as bf16 in get_inputs, the model casts itself to bf16
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """Linear-GELU-Linear held in bf16."""

    def __init__(self, d_in, d_hidden):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.fc2 = nn.Linear(d_hidden, d_in)
        self.to(torch.bfloat16)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))


batch_size = 8192
d_in = 4096
d_hidden = 16384


def get_inputs():
    return [torch.rand(batch_size, d_in, dtype=torch.bfloat16)]


def get_init_inputs():
    return [d_in, d_hidden]
