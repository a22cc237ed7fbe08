# expect: (1, 3, 7, 6) you count
# The mistake: reading one number of each setting, as if kernels, strides, padding and dilation were square.
import math

from torch import nn


def first(value):
    return value[0] if isinstance(value, tuple) else value


def forward_flops(model, input_shape):
    shape, flops = list(input_shape), 0
    for layer in model:
        if isinstance(layer, nn.Conv2d | nn.MaxPool2d):
            k, s, p, d = (first(v) for v in (layer.kernel_size, layer.stride, layer.padding, layer.dilation))
            spatial = [(size + 2 * p - d * (k - 1) - 1) // s + 1 for size in shape[2:]]
            if isinstance(layer, nn.Conv2d):
                outputs = shape[0] * layer.out_channels * math.prod(spatial)
                flops += 2 * outputs * (layer.in_channels // layer.groups) * k * k
                shape[1] = layer.out_channels
            shape[2:] = spatial
        elif isinstance(layer, nn.AdaptiveAvgPool2d):
            size = layer.output_size
            shape[2:] = size if isinstance(size, tuple) else (size, size)
        elif isinstance(layer, nn.Flatten):
            shape = [shape[0], math.prod(shape[1:])]
        elif isinstance(layer, nn.Linear):
            flops += 2 * math.prod(shape[:-1]) * layer.in_features * layer.out_features
            shape[-1] = layer.out_features
    return flops
