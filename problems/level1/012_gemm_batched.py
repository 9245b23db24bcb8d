# batched GEMM 64 x (512x512x512)
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """C = A @ B (batched)."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B)


M = 512
K = 512
N = 512
BATCH = 64


def get_inputs():
    A = torch.rand(BATCH, M, K)
    B = torch.rand(BATCH, K, N)
    return [A, B]


def get_init_inputs():
    return []
