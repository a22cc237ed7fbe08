import os
import resource
import threading
import time

from torch.utils.data import DataLoader, Dataset


class PythonWork(Dataset):  # a CPU-bound, pure-Python transform per sample
    def __len__(self):
        return 128

    # --8<-- [start:gist]
    def __getitem__(self, index):
        total = sum(i * i % 7 for i in range(40_000))
        in_main_thread = threading.current_thread() is threading.main_thread()
        return os.getpid(), in_main_thread, total
    # --8<-- [end:gist]


def cpu(who):
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def load(num_workers):
    own, ended = cpu(resource.RUSAGE_SELF), cpu(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    loader = DataLoader(PythonWork(), batch_size=8, num_workers=num_workers)
    where = {(int(p), bool(m)) for b in loader for p, m in zip(b[0], b[1])}
    wall = time.perf_counter() - start
    main = cpu(resource.RUSAGE_SELF) - own
    workers = cpu(resource.RUSAGE_CHILDREN) - ended  # joined workers
    return where, main, workers, wall


# --8<-- [start:gist]
where, main, _, wall = load(0)
assert where == {(os.getpid(), True)}  # the main thread of this process
assert main / wall < 1.1  # one thread keeps at most one core busy
# --8<-- [end:gist]
print(f"num_workers=0: every sample loaded by the main thread: "
      f"{where == {(os.getpid(), True)}}; cores busy <= 1 of {os.cpu_count()}")

# --8<-- [start:gist]
where, main, workers, _ = load(2)
assert len(where) == 2 and os.getpid() not in {pid for pid, _ in where}
assert main < 0.25 * workers  # the main process only receives batches
# --8<-- [end:gist]
print(f"num_workers=2: loaded in {len(where)} other processes; the main "
      "process used less than a quarter of the workers' CPU time")
