# both operands transposed: A^T @ B^T, 4096^3
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """C = A^T @ B^T."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A.transpose(-2, -1), B.transpose(-2, -1))


M = 4096
K = 4096
N = 4096


def get_inputs():
    A = torch.rand(K, M)
    B = torch.rand(N, K)
    return [A, B]


def get_init_inputs():
    return []
