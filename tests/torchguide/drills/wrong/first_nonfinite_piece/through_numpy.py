# expect: for bfloat16 pieces ('ok', 'bad') your first_nonfinite_piece raised TypeError
# The mistake: each tensor handed to NumPy, which has no bfloat16 (a dtype mixed-precision
# training gives its activations): the tensors may be of any dtype.
import numpy as np


def first_nonfinite_piece(pieces):
    for name, tensor in pieces.items():
        if not np.isfinite(tensor.detach().numpy()).all():
            return name
    return None
