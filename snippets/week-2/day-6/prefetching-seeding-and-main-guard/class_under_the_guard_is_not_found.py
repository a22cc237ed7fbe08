import subprocess
import sys
from pathlib import Path

SCRIPT = '''
import multiprocessing


def load(dataset):
    print(dataset[3])


if __name__ == "__main__":
    class Squares:  # defined under the guard: the worker never defines it
        def __getitem__(self, index):
            return index * index

    spawn = multiprocessing.get_context("spawn")
    worker = spawn.Process(target=load, args=(Squares(),))  # pickled
    worker.start()
    worker.join()
    print("worker exit code:", worker.exitcode)
'''
# --8<-- [start:gist]
Path("train.py").write_text(SCRIPT)
done = subprocess.run([sys.executable, "train.py"], capture_output=True,
                      text=True, timeout=60)
error = done.stderr.strip().splitlines()[-1]

assert done.stdout == "worker exit code: 1\n"
assert error.startswith("AttributeError: Can't get attribute 'Squares' on "
                        "<module '__mp_main__'")
# --8<-- [end:gist]
print(done.stdout.strip())
print("the worker:", error.split(" from ")[0] + ">")  # without the path
