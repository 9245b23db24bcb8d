# 3-D tensor times matrix: (64,512,2048) @ (2048,2048)
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """A [B, S, K] @ W [K, N]: a GEMM with M = B*S after flattening."""

    def __init__(self):
        super().__init__()

    def forward(self, A, W):
        return torch.matmul(A, W)


B = 64
S = 512
K = 2048
N = 2048


def get_inputs():
    return [torch.rand(B, S, K), torch.rand(K, N)]


def get_init_inputs():
    return []
