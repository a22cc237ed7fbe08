import warnings

import torch


def shift(x):
    if x.sum() > 0:
        return x * 2
    return x - 1


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    traced = torch.jit.trace(shift, torch.ones(3))  # records the path taken
    scripted = torch.jit.script(shift)  # compiles the Python source
deprecated = {str(w.message) for w in caught if "deprecated" in str(w.message)}
negative = torch.full((3,), -3.0)
assert traced(negative).tolist() == [-6.0] * 3  # the frozen branch
assert scripted(negative).tolist() == shift(negative).tolist() == [-4.0] * 3
assert len(deprecated) == 2
print("traced on -3:  ", traced(negative).tolist())
print("scripted on -3:", scripted(negative).tolist())
print(*sorted(deprecated), sep="\n")
