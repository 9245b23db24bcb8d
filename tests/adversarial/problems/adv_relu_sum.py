# Adversarial-suite problem: relu(x).sum(dim=1). With U[0,1) inputs relu is the identity, a shortcut trap.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.relu(x).sum(dim=1)


rows = 4096
cols = 4096


def get_inputs():
    return [torch.rand(rows, cols)]


def get_init_inputs():
    return []
