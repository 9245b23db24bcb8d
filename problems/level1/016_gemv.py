# matrix-vector product 1 x 32768 -> 4096 (memory bound GEMV)
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """y = A @ x with A [N, K] and x [K, 1]."""

    def __init__(self):
        super().__init__()

    def forward(self, A, x):
        return torch.matmul(A, x)


N = 4096
K = 32768


def get_inputs():
    return [torch.rand(N, K), torch.rand(K, 1)]


def get_init_inputs():
    return []
