# expect: exactly half, the count of multiply-adds (MACs); one multiply-add is two FLOPs
# The mistake: counting multiply-accumulates, as thop does, and calling them FLOPs.
import math

from torch import nn


def window_size(size, kernel, stride, padding, dilation):
    return (size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1


def pair(value):
    return value if isinstance(value, tuple) else (value, value)


def forward_flops(model, input_shape):
    shape, flops = list(input_shape), 0
    for layer in model:
        if isinstance(layer, nn.Conv2d | nn.MaxPool2d):
            settings = zip(
                shape[2:],
                pair(layer.kernel_size),
                pair(layer.stride),
                pair(layer.padding),
                pair(layer.dilation),
                strict=True,
            )
            spatial = [window_size(*s) for s in settings]
            if isinstance(layer, nn.Conv2d):
                outputs = shape[0] * layer.out_channels * math.prod(spatial)
                per_output = layer.in_channels // layer.groups
                per_output *= math.prod(layer.kernel_size)
                flops += outputs * per_output
                shape[1] = layer.out_channels
            shape[2:] = spatial
        elif isinstance(layer, nn.AdaptiveAvgPool2d):
            shape[2:] = pair(layer.output_size)
        elif isinstance(layer, nn.Flatten):
            shape = [shape[0], math.prod(shape[1:])]
        elif isinstance(layer, nn.Linear):
            rows = math.prod(shape[:-1])
            flops += rows * layer.in_features * layer.out_features
            shape[-1] = layer.out_features
        # ReLU and BatchNorm2d keep the shape and count 0
    return flops
