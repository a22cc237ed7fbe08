# expect: for shape (2, 3) and strides (6, 2) you returned True; expected False
# The mistake: "contiguous means the strides decrease", forgetting that they must leave no gap.
def is_contiguous(shape, strides):
    return list(strides) == sorted(strides, reverse=True)
