# Adversarial-suite problem: element-wise 2*x + y over 4M elements.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        return 2.0 * x + y


n = 4 * 1024 * 1024


def get_inputs():
    return [torch.rand(n), torch.rand(n)]


def get_init_inputs():
    return []
