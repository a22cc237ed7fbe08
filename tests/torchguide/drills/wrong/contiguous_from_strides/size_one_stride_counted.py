# expect: for shape (2, 1, 3) and strides (3, 99, 1) you returned False; expected True
# The mistake: comparing with the row-major strides exactly, even where a dimension has size 1.
def is_contiguous(shape, strides):
    expected, row_major = 1, []
    for size in reversed(shape):
        row_major.insert(0, expected)
        expected *= size
    return tuple(strides) == tuple(row_major)
