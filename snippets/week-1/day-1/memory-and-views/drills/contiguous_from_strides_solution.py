from torchguide.drills import check_here


def is_contiguous(shape: tuple, strides: tuple) -> bool:
    """True when a tensor of this shape and these strides is contiguous."""
    if 0 in shape:
        return True  # no element to lay out
    expected = 1  # the stride a row-major layout gives this dimension
    for size, stride in zip(reversed(shape), reversed(strides)):
        if size != 1:  # a size-1 dimension is never stepped over
            if stride != expected:
                return False
            expected *= size
    return True


check_here("contiguous_from_strides", is_contiguous)
