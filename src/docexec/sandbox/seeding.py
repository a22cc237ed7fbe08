"""Every snippet starts from the same random state: Python's, numpy's and torch's global
generators seeded with the project's seed.

A library the warm server preloaded is seeded at once; one the snippet imports itself is seeded
as its import completes (wrapt's post-import hooks), so that preloading changes how fast a snippet
starts, never what it prints.
"""

from __future__ import annotations

import random
import types
from collections.abc import Callable

import wrapt


def _seed_numpy(numpy: types.ModuleType, seed: int) -> None:
    numpy.random.seed(seed)


def _seed_torch(torch: types.ModuleType, seed: int) -> None:
    torch.manual_seed(seed)
    # One intra-op thread: snippets run side by side, and on a busy machine every parallel
    # region of a multi-threaded op waits for a time slice (10-50x slower measured on 2 cores).
    # It also makes reductions independent of the machine's core count.
    torch.set_num_threads(1)


_SEEDERS: dict[str, Callable[[types.ModuleType, int], None]] = {"numpy": _seed_numpy, "torch": _seed_torch}


def seed_everything(seed: int) -> None:
    """Seed the generators now, or when their library is first imported (a hook for a module
    already imported runs at once)."""
    random.seed(seed)
    for name, seeder in _SEEDERS.items():
        wrapt.register_post_import_hook(lambda module, seeder=seeder: seeder(module, seed), name)


__all__ = ["seed_everything"]
