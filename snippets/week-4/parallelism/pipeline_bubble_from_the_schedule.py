from fractions import Fraction


def gpipe_forward_idle(stages, micro_batches):
    # stage s runs micro-batch i at time step i + s; count idle slots
    steps = micro_batches + stages - 1
    busy = {(i + s, s) for i in range(micro_batches) for s in range(stages)}
    idle = steps * stages - len(busy)
    return Fraction(idle, steps * stages)


print("stages  micro-batches  idle (schedule)  (p-1)/(m+p-1)")
for p, m in [(4, 1), (4, 4), (4, 16), (8, 8), (8, 32)]:
    idle = gpipe_forward_idle(p, m)
    assert idle == Fraction(p - 1, m + p - 1)
    print(f"{p:6} {m:14} {float(idle):16.3f}  {p - 1}/{m + p - 1}")
