"""Snippets that start worker processes behave as under ``python snippet.py``, and no worker
outlives its snippet.

Each snippet's stdout from the engine is compared with the stdout of the same file run by a
plain ``python`` in an empty folder: the reference is Python itself, not a written-down string.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from processes import assert_all_gone, marked

from docexec.execution.result import Status

DATALOADER_TWO_WORKERS = """
    import os
    import torch
    from torch.utils.data import DataLoader, Dataset, get_worker_info

    class Squares(Dataset):
        def __len__(self):
            return 8

        def __getitem__(self, index):
            return torch.tensor([index * index, get_worker_info().id, os.getpid()])

    rows = torch.cat(list(DataLoader(Squares(), batch_size=2, num_workers=2)))
    pids = set(rows[:, 2].tolist())
    assert len(pids) == 2 and os.getpid() not in pids
    print("squares:", rows[:, 0].tolist())
    print("worker ids:", sorted(set(rows[:, 1].tolist())))
"""

# The pool needs the guard with spawn and forkserver: each new process runs the file again.
POOL_OF = """
    import multiprocessing

    def square(x):
        return x * x

    if __name__ == "__main__":
        context = multiprocessing.get_context("{method}")
        with context.Pool(2) as pool:
            print(pool.map(square, range(6)))
"""

GUARDED_SCRIPT = """
    import multiprocessing

    def module_name(_):
        return __name__  # the snippet's module, as the worker process sees it

    if __name__ == "__main__":
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            print("main block runs as", __name__)
            print("the worker imported the file as", pool.map(module_name, [0])[0])
"""

UNGUARDED_SPAWN = """
    import multiprocessing

    def work():
        pass

    process = multiprocessing.get_context("spawn").Process(target=work)
    process.start()  # the new process runs this line again while importing the file
    process.join()
    print("the spawned process exited with", process.exitcode)
"""

LEFT_RUNNING = """
    import multiprocessing
    import time

    def late():
        time.sleep(0.5)
        print("the worker finished after the main code")

    multiprocessing.get_context("fork").Process(target=late).start()
    print("main code done")
"""

# Long enough for every worker to have started on a machine busy with other work (3 s was not,
# with the whole batch starting at once), short enough that the batch does not wait long.
# Each process of a stalled snippet names itself with a mark (its `comm`, seen from outside), by
# which the test finds it: the PIDs the snippet sees are those of its own PID namespace.
MARKS_ITSELF = """
    import ctypes

    def mark():
        ctypes.CDLL(None).prctl(15, b"{mark}", 0, 0, 0)  # PR_SET_NAME
        print("started", flush=True)
"""

STALLED_DATALOADER = """
    # docexec: timeout=6
    import time
    from torch.utils.data import DataLoader, Dataset
""" + MARKS_ITSELF + """
    class Stalls(Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, index):
            time.sleep(600)

    mark()
    next(iter(DataLoader(Stalls(), num_workers=2, worker_init_fn=lambda worker_id: mark())))
"""

STALLED_SPAWN = """
    # docexec: timeout=6
    import multiprocessing
    import time
""" + MARKS_ITSELF + """
    def stall():
        mark()
        time.sleep(600)

    if __name__ == "__main__":
        mark()
        process = multiprocessing.get_context("spawn").Process(target=stall)
        process.start()
        process.join()
"""

COMPARED = {
    "dataloader_two_workers.py": DATALOADER_TWO_WORKERS,
    "spawn_pool.py": POOL_OF.replace("{method}", "spawn"),
    "forkserver_pool.py": POOL_OF.replace("{method}", "forkserver"),
    "guarded_script.py": GUARDED_SCRIPT,
    "unguarded_spawn.py": UNGUARDED_SPAWN,
    "left_running.py": LEFT_RUNNING,
}
MARK, FALLBACK_MARK = (f"dx{uuid.uuid4().hex[:12]}" for _ in range(2))  # comm: at most 15 bytes
STALLED = {
    "stalled_dataloader.py": STALLED_DATALOADER.replace("{mark}", MARK),
    "stalled_spawn.py": STALLED_SPAWN.replace("{mark}", MARK),
}


def python_stdout(path: Path, folder: Path) -> str:
    """What ``python snippet.py`` prints, run in an empty folder."""
    folder.mkdir()
    done = subprocess.run(
        [sys.executable, str(path)], cwd=folder, capture_output=True, text=True, timeout=120, check=False
    )
    return done.stdout


@pytest.fixture(scope="module")
def fallback(new_project):
    """The subprocess fallback's run, in a thread, beside the batch: their timeouts pass together.
    A project of its own: the batch's cache must not answer for it."""
    project = new_project("fallback")
    pool = project.snippet("spawn_pool.py", COMPARED["spawn_pool.py"])
    # A fresh interpreter per snippet, and one more for the spawned worker: a little longer than
    # under fork, so that the worker has surely started when the kill comes.
    code = STALLED_SPAWN.replace("timeout=6", "timeout=8").replace("{mark}", FALLBACK_MARK)
    stalled = project.snippet("stalled_spawn.py", code)
    with ThreadPoolExecutor(1) as executor:
        running = executor.submit(project.engine(fork=False).execute, [pool, stalled], progress=False)
        yield running, pool, stalled


@pytest.fixture(scope="module")
def batch(module_project, fallback):
    paths = [module_project.snippet(name, code) for name, code in {**COMPARED, **STALLED}.items()]
    # torch preloaded where it is installed: the stalled DataLoader's seconds are for its workers to
    # start, not for importing torch inside the snippet first (the DataLoader tests are marked ``torch``).
    preload = ("torch",) if importlib.util.find_spec("torch") else ()
    results, _ = module_project.engine(preload=preload).execute(paths, progress=False)
    return {path.removeprefix("snippets/"): result for path, result in results.items()}


def stdout_of(result) -> str:
    return "".join(cell.text("stdout") for cell in result.cells)


def _marked(name: str):  # type: ignore[no-untyped-def]
    """A snippet name as a parameter, marked ``torch`` where it uses a DataLoader."""
    return pytest.param(name, marks=pytest.mark.torch) if "dataloader" in name else name


@pytest.mark.parametrize("name", [_marked(name) for name in COMPARED])
def test_the_output_is_what_python_prints(batch, module_project, tmp_path, name):
    result = batch[name]
    assert result.status == Status.PASSED, result.failure
    assert stdout_of(result), "a snippet that prints nothing proves nothing"
    assert stdout_of(result) == python_stdout(module_project.root / "snippets" / name, tmp_path / "cwd")


@pytest.mark.torch
def test_two_dataloader_workers_each_load_their_part(batch):
    assert batch["dataloader_two_workers.py"].output == (
        "squares: [0, 1, 4, 9, 16, 25, 36, 49]\nworker ids: [0, 1]\n"
    )


@pytest.mark.parametrize("name", ["spawn_pool.py", "forkserver_pool.py"])
def test_a_pool_runs_a_function_defined_in_the_snippet(batch, name):
    assert batch[name].output == "[0, 1, 4, 9, 16, 25]\n"


def test_a_guarded_script_runs_its_main_block_once_and_workers_import_it(batch):
    assert batch["guarded_script.py"].output == (
        "main block runs as __main__\nthe worker imported the file as __mp_main__\n"
    )


def test_an_unguarded_spawn_fails_in_the_new_process(batch):
    result = batch["unguarded_spawn.py"]
    assert stdout_of(result) == "the spawned process exited with 1\n"
    # The new process's traceback, written to file descriptor 2 by another interpreter, is kept.
    assert "An attempt has been made to start a new process" in result.output


def test_workers_left_running_are_waited_for_as_at_interpreter_exit(batch):
    assert batch["left_running.py"].output == "main code done\nthe worker finished after the main code\n"


@pytest.mark.parametrize(
    ("name", "processes"),
    [pytest.param("stalled_dataloader.py", 3, marks=pytest.mark.torch), ("stalled_spawn.py", 2)],
)
def test_a_stalled_snippet_is_killed_at_the_timeout_with_its_workers(batch, name, processes):
    result = batch[name]
    assert result.status == Status.FAILED
    assert "timed out after 6 s" in result.failure
    assert result.output.count("started\n") == processes  # the snippet's process and its workers
    assert_all_gone(marked(MARK))


def test_the_subprocess_fallback_carries_worker_processes_too(fallback):
    running, pool, stalled = fallback
    results, _ = running.result(timeout=120)
    assert results[pool].output == "[0, 1, 4, 9, 16, 25]\n"
    assert "timed out" in results[stalled].failure
    assert results[stalled].output.count("started\n") == 2
    assert_all_gone(marked(FALLBACK_MARK))
