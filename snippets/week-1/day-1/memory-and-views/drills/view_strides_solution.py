import math

from torchguide.drills import check_here


def view_strides(shape, strides, new_shape):
    if not shape or math.prod(shape) == 0:
        # a scalar's view has only dims of size 1, an empty one no
        # element: no stride is ever stepped with
        return tuple(1 for _ in new_shape)
    new_strides = [1] * len(new_shape)
    d = len(new_shape) - 1  # the next new dimension, from the last
    run_numel = 1  # elements in the current run of old dimensions
    view_numel = 1  # elements the new dimensions cover in that run
    base = strides[-1]  # the run's innermost stride
    for i in range(len(shape) - 1, -1, -1):
        run_numel *= shape[i]
        # the run ends at dim 0, or where the next outer dimension does
        # not follow on in memory (one of size 1 is never stepped over)
        ends = i == 0 or (
            shape[i - 1] != 1 and strides[i - 1] != run_numel * base
        )
        if ends:
            while d >= 0 and (view_numel < run_numel or new_shape[d] == 1):
                new_strides[d] = view_numel * base
                view_numel *= new_shape[d]
                d -= 1
            if view_numel != run_numel:  # a new dim straddles two runs
                return None
            if i > 0:
                base, run_numel, view_numel = strides[i - 1], 1, 1
    return tuple(new_strides) if d < 0 else None


check_here("view_strides", view_strides)
