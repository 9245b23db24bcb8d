# B stored transposed (K-major B, nn.Linear-like TN): A @ B^T
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """C = A @ B^T."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B.transpose(-2, -1))


M = 4096
K = 4096
N = 4096


def get_inputs():
    A = torch.rand(M, K)
    B = torch.rand(N, K)
    return [A, B]


def get_init_inputs():
    return []
