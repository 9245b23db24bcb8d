# Adversarial-suite problem (degenerate on purpose): softmax over rows of 262144, every value ~4e-6 < atol.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.softmax(x, dim=1)


rows = 16
cols = 262144


def get_inputs():
    return [torch.rand(rows, cols)]


def get_init_inputs():
    return []
