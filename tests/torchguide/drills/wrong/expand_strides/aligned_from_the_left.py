# expect: for shape (4,) and strides (1,) expanded to (3, 4) you returned None; expected (0, 1)
# The mistake: the tensor's dimensions paired with the first of target's, as zip pairs them;
# expand, like broadcasting, aligns them from the right.
def expand_strides(shape, strides, target):
    if len(target) < len(shape):
        return None
    result = []
    for index, wanted in enumerate(target):
        if index >= len(shape):
            result.append(0)
        elif shape[index] == wanted:
            result.append(strides[index])
        elif shape[index] == 1:
            result.append(0)
        else:
            return None
    return tuple(result)
