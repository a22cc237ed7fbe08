import multiprocessing
import resource
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path


def waits():  # times this thread stopped to wait (Linux counts them)
    status = Path("/proc/thread-self/status").read_text()
    return int(status.split("voluntary_ctxt_switches:")[1].split()[0])


def transform(seed):  # a pure-Python per-sample transform
    before = waits()
    total = sum((seed + i) * i % 7 for i in range(300_000))
    return total, waits() - before  # waits *during* the computation


def cpu():  # CPU seconds of all threads of this process
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


samples = range(8)
# --8<-- [start:gist]
one_thread = [w for _, w in map(transform, samples)]
with ThreadPoolExecutor(2) as pool:
    cpu_before, start = cpu(), time.perf_counter()
    two_threads = [w for _, w in pool.map(transform, samples)]
    cores_busy = (cpu() - cpu_before) / (time.perf_counter() - start)
# --8<-- [end:gist]
fork = multiprocessing.get_context("fork")
with ProcessPoolExecutor(2, mp_context=fork) as pool:
    two_processes = [w for _, w in pool.map(transform, samples)]

# --8<-- [start:gist]
# alone, a thread never waits; beside a second thread it waits for the GIL
# again and again; a process has a GIL of its own and never waits
assert max(one_thread) <= 1 and max(two_processes) <= 1
# --8<-- [end:gist]
# (but the last sample may run alone once the other thread is done, and on a
# busy machine the OS may keep the other thread off the CPU for a whole sample)
# --8<-- [start:gist]
assert sum(w >= 1 for w in two_threads) > len(samples) // 2
assert sum(two_threads) >= 2 * len(samples)
assert cores_busy < 1.1  # so 2 threads never run Python on 2 cores at once
# --8<-- [end:gist]
n = len(samples)
# The bounds the asserts above hold, not the counts: those vary from run to run.
print(f"waits (voluntary context switches) in {n} samples:")
print("  1 thread:    at most 1 per sample")
print(f"  2 threads:   some in more than {n // 2} samples,"
      f" {2 * n} or more in all")
print("  2 processes: at most 1 per sample")
print("2 threads kept at most one core busy:", cores_busy < 1.1)
