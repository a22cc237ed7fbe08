# expect: for 3 ranks and gradients of 6 elements your ranks sent 36 elements through exchange in all; a ring all-reduce sends 2 x (ranks - 1) x 6 = 24
# The mistake: every rank passes whole gradients around the ring, adding each one it receives:
# the right average, but each rank sends (ranks - 1) whole gradients instead of about two.
def ring_all_reduce(grads, exchange):
    n = len(grads)
    totals = [g.clone() for g in grads]
    passing = [g.clone() for g in grads]
    for _ in range(n - 1):
        passing = exchange(passing)
        for r in range(n):
            totals[r] += passing[r]
    return [t / n for t in totals]
