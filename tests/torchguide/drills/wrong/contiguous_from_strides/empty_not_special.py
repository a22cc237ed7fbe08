# expect: for shape (0, 3) and strides (1, 5) you returned False; expected True
# The mistake: forgetting that a tensor with no elements is contiguous, whatever its strides.
def is_contiguous(shape, strides):
    expected = 1
    for size, stride in zip(reversed(shape), reversed(strides), strict=True):
        if size != 1:
            if stride != expected:
                return False
            expected *= size
    return True
