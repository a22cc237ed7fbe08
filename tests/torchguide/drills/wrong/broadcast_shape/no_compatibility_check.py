# expect: for shapes (3, 2) and (3,) you returned (3, 3); expected None: they do not broadcast
# The mistake: sizes that are neither equal nor 1 taken as if one of them stretched; they do not
# broadcast, as the lab's last cell shows.
def broadcast_shape(a, b):
    size = max(len(a), len(b))
    a = (1,) * (size - len(a)) + tuple(a)
    b = (1,) * (size - len(b)) + tuple(b)
    return tuple(y if x == 1 else x if y == 1 else max(x, y) for x, y in zip(a, b, strict=True))
