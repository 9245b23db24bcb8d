# fp16 inputs created in get_inputs: 4096x8192x4096
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


M = 4096
K = 8192
N = 4096


def get_inputs():
    A = torch.rand(M, K, dtype=torch.float16)
    B = torch.rand(K, N, dtype=torch.float16)
    return [A, B]


def get_init_inputs():
    return []
