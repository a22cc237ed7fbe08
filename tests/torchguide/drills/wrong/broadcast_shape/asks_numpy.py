# expect: calls numpy.lib._stride_tricks_impl.broadcast_shapes; the task asks for the shape from the two tuples alone
# The mistake: NumPy's answer, which the task rules out as it does torch's.
import numpy as np


def broadcast_shape(a, b):
    try:
        return np.broadcast_shapes(a, b)
    except ValueError:
        return None
