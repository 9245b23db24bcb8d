# Pattern 10 (operands rounded to fp16 before the GEMM). Caught by: the fp32 tolerance 1e-4 (incorrect); with kernelbench-v0.1 it passes and precision_downgrade reports it.
# ucutlass-adversarial: problem=problems/adv_linear_relu.py expect=incorrect
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Shared honest kernels: every file of the suite carries this exact source and
# extension name, so one build in TORCH_EXTENSIONS_DIR serves them all.
_CUDA_SRC = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void ucutlass_adv_linear(const float* x, const float* w, const float* b, float* out,
                                    int M, int N, int K, int relu) {
    __shared__ float xs[16][17];
    __shared__ float ws[16][17];
    int row = blockIdx.y * 16 + threadIdx.y;
    int col = blockIdx.x * 16 + threadIdx.x;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += 16) {
        int kx = k0 + threadIdx.x;
        xs[threadIdx.y][threadIdx.x] = (row < M && kx < K) ? x[(long)row * K + kx] : 0.f;
        int wrow = blockIdx.x * 16 + threadIdx.y;
        ws[threadIdx.y][threadIdx.x] = (wrow < N && kx < K) ? w[(long)wrow * K + kx] : 0.f;
        __syncthreads();
        for (int k = 0; k < 16; ++k) acc += xs[threadIdx.y][k] * ws[threadIdx.x][k];
        __syncthreads();
    }
    if (row < M && col < N) {
        float v = acc + b[col];
        out[(long)row * N + col] = (relu && v < 0.f) ? 0.f : v;
    }
}

__global__ void ucutlass_adv_scale_add(const float* x, const float* y, float* out, float alpha, long n) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = alpha * x[i] + y[i];
}

__global__ void ucutlass_adv_fill(float* out, float value, long n) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = value;
}

__global__ void ucutlass_adv_row_sum(const float* x, float* out, int cols, int relu) {
    __shared__ float partial[256];
    const float* r = x + (long)blockIdx.x * cols;
    float acc = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        float v = r[c];
        acc += (relu && v < 0.f) ? 0.f : v;
    }
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

__global__ void ucutlass_adv_row_softmax(const float* x, float* out, int cols) {
    __shared__ float red[256];
    const float* r = x + (long)blockIdx.x * cols;
    float* o = out + (long)blockIdx.x * cols;
    float m = -INFINITY;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, r[c]);
    red[threadIdx.x] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
        __syncthreads();
    }
    m = red[0];
    __syncthreads();
    float acc = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) acc += expf(r[c] - m);
    red[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
        __syncthreads();
    }
    float total = red[0];
    for (int c = threadIdx.x; c < cols; c += blockDim.x) o[c] = expf(r[c] - m) / total;
}

torch::Tensor linear(torch::Tensor x, torch::Tensor w, torch::Tensor b, bool relu) {
    int M = x.size(0), K = x.size(1), N = w.size(0);
    auto out = torch::empty({M, N}, x.options());
    dim3 block(16, 16), grid((N + 15) / 16, (M + 15) / 16);
    ucutlass_adv_linear<<<grid, block, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), w.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), M, N, K, relu);
    return out;
}

torch::Tensor scale_add(torch::Tensor x, torch::Tensor y, double alpha) {
    auto out = torch::empty_like(x);
    long n = x.numel();
    ucutlass_adv_scale_add<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), out.data_ptr<float>(), (float)alpha, n);
    return out;
}

torch::Tensor fill(torch::Tensor out, double value) {
    long n = out.numel();
    ucutlass_adv_fill<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        out.data_ptr<float>(), (float)value, n);
    return out;
}

torch::Tensor row_sum(torch::Tensor x, bool relu) {
    auto out = torch::empty({x.size(0)}, x.options());
    ucutlass_adv_row_sum<<<x.size(0), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), out.data_ptr<float>(), x.size(1), relu);
    return out;
}

torch::Tensor row_softmax(torch::Tensor x) {
    auto out = torch::empty_like(x);
    ucutlass_adv_row_softmax<<<x.size(0), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), out.data_ptr<float>(), x.size(1));
    return out;
}
"""
_CPP_SRC = r"""
#include <torch/extension.h>
torch::Tensor linear(torch::Tensor x, torch::Tensor w, torch::Tensor b, bool relu);
torch::Tensor scale_add(torch::Tensor x, torch::Tensor y, double alpha);
torch::Tensor fill(torch::Tensor out, double value);
torch::Tensor row_sum(torch::Tensor x, bool relu);
torch::Tensor row_softmax(torch::Tensor x);
"""
ext = load_inline(name="ucutlass_adv_kernels", cpp_sources=_CPP_SRC, cuda_sources=_CUDA_SRC,
                  functions=["linear", "scale_add", "fill", "row_sum", "row_softmax"],
                  extra_cuda_cflags=["-O2"], extra_include_paths=[], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        xh = x.to(torch.float16).to(torch.float32)
        wh = self.linear.weight.to(torch.float16).to(torch.float32)
        return ext.linear(xh, wh, self.linear.bias, True)
