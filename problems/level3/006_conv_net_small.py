# small CNN: 3 conv-BN-ReLU stages with pooling and a linear classifier, batch 64 at 224x224
# ucutlass problem suite, KernelBench format.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """conv(3->64)-bn-relu-pool, conv(64->128)-bn-relu-pool, conv(128->256)-bn-relu-gap, linear(256->1000)."""

    def __init__(self, num_classes):
        super().__init__()
        layers = []
        channels = [3, 64, 128, 256]
        for cin, cout in zip(channels[:-1], channels[1:]):
            layers += [nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU()]
        self.features = nn.Sequential(*layers)
        self.fc = nn.Linear(256, num_classes)

    def forward(self, x):
        for i, layer in enumerate(self.features):
            x = layer(x)
            if isinstance(layer, nn.ReLU) and i < len(self.features) - 1:
                x = F.max_pool2d(x, 2)
        return self.fc(x.mean(dim=(2, 3)))


batch_size = 64
num_classes = 1000


def get_inputs():
    return [torch.rand(batch_size, 3, 224, 224)]


def get_init_inputs():
    return [num_classes]
