# expect: for Conv2d(4, 6, k=5, s=2, p=1, d=2, bias=False) on an input of shape (1, 4, 11, 9) you count 42000 FLOPs; expected 7200
# The mistake: the output size of a plain 'valid' convolution, whatever the stride, padding and dilation.
import math

from torch import nn


def window_size(size, kernel, stride, padding, dilation):
    return size - kernel + 1  # right only for stride 1, no padding, no dilation


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
                flops += 2 * outputs * per_output  # 2 per multiply-add
                shape[1] = layer.out_channels
            shape[2:] = spatial
        elif isinstance(layer, nn.AdaptiveAvgPool2d):
            shape[2:] = pair(layer.output_size)
        elif isinstance(layer, nn.Flatten):
            shape = [shape[0], math.prod(shape[1:])]
        elif isinstance(layer, nn.Linear):
            rows = math.prod(shape[:-1])
            flops += 2 * rows * layer.in_features * layer.out_features
            shape[-1] = layer.out_features
        # ReLU and BatchNorm2d keep the shape and count 0
    return flops
