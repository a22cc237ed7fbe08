import functools
import pickle
import re
import warnings

import torch
from torch.utils.data import DataLoader


def stack_rows(batch, width):  # a top-level function: pickled by its name
    return torch.tensor(batch).view(-1, width)


def first_batch(collate_fn, multiprocessing_context):
    loader = DataLoader(range(8), batch_size=4, num_workers=1,
                        collate_fn=collate_fn,
                        multiprocessing_context=multiprocessing_context)
    return next(iter(loader))  # the worker starts here


# spawn and forkserver import this file again in each worker: hence the guard
if __name__ == "__main__":
    # --8<-- [start:gist]
    try:  # spawn pickles the worker's arguments, collate_fn among them
        with warnings.catch_warnings(record=True) as warned:
            first_batch(lambda batch: torch.tensor(batch),
                        multiprocessing_context="spawn")
    except (pickle.PicklingError, AttributeError) as error:
        refused = error
    assert "<lambda>" in str(refused)
    # --8<-- [end:gist]
    # fork copies the process instead of pickling: the lambda is fine there
    assert first_batch(lambda batch: torch.tensor(batch),
                       multiprocessing_context="fork").numel() == 4
    # --8<-- [start:gist]
    # a top-level function (or a partial of one) pickles by name
    assert first_batch(functools.partial(stack_rows, width=2),
                       multiprocessing_context="spawn").shape == (2, 2)
    # --8<-- [end:gist]
    message = re.sub(r" at 0x[0-9a-f]+", "", str(refused))  # no address
    print("spawn, lambda:", type(refused).__name__ + ":", message)
    # the loader adds a hint (a warning, here recorded rather than shown)
    (hint,) = [str(w.message) for w in warned if "pickle" in str(w.message)]
    print("  DataLoader's hint:", hint.split(". ")[0] + ".")
    print("fork, lambda: a batch of 4")
    print("spawn, partial of a top-level function: a batch of shape (2, 2)")
