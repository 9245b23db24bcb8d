# single-layer LSTM, 512 steps, batch 64, hidden 1024 (sequential GEMMs)
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """nn.LSTM(input, hidden), returning the output sequence."""

    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.lstm = nn.LSTM(input_size, hidden_size, batch_first=True)

    def forward(self, x):
        out, _ = self.lstm(x)
        return out


batch_size = 64
seq_len = 512
input_size = 1024
hidden_size = 1024


def get_inputs():
    return [torch.rand(batch_size, seq_len, input_size)]


def get_init_inputs():
    return [input_size, hidden_size]
