# bf16 inputs created in get_inputs: 8192^3 bf16 GEMM (tolerance 1e-2)
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """C = A @ B."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B)


M = 8192
K = 8192
N = 8192


def get_inputs():
    A = torch.rand(M, K, dtype=torch.bfloat16)
    B = torch.rand(K, N, dtype=torch.bfloat16)
    return [A, B]


def get_init_inputs():
    return []
