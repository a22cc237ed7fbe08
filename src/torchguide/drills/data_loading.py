"""The drills of Day 6, data loading: what ``default_collate`` does, sharding an IterableDataset
across workers, seeding the workers' generators, strings without Python objects, padding images of
different sizes, batches by length, class-balanced sample weights, and shards per rank and worker.
"""

from __future__ import annotations

import copy
import multiprocessing
import random

import numpy as np
import torch
from hypothesis import strategies as st
from torch.utils.data import DataLoader, Dataset, default_collate
from torch.utils.data._utils import worker as torch_worker

from torchguide.drills.framework import Case, Drill, Forbidden, Mismatch, expect_tensor, shape_text

# --- shards_per_rank_and_worker -----------------------------------------------------------------


def _worker_shards(shards, rank, world_size, worker_id, num_workers):
    return list(shards[rank::world_size][worker_id::num_workers])  # by process first, then by worker


def _shards_case(n_shards, world_size, num_workers):
    shards = [f"{i:02d}.tar" for i in range(n_shards)]
    return Case(
        f"for {n_shards} shards, world_size={world_size} and num_workers={num_workers}",
        (shards, world_size, num_workers),
    )


def _shards_named():
    return [
        _shards_case(8, 2, 2),
        _shards_case(6, 2, 2),
        _shards_case(5, 2, 2),
        _shards_case(10, 3, 2),
        _shards_case(4, 1, 4),
        _shards_case(3, 2, 2),  # fewer shards than workers: some read none
    ]


@st.composite
def _shards_generated(draw):
    return _shards_case(draw(st.integers(0, 24)), draw(st.integers(1, 4)), draw(st.integers(1, 4)))


def _every_rank_and_worker(function):
    """The drill's function as the checker calls it: once per (rank, worker), shares side by side."""

    def call(shards, world_size, num_workers):
        return [
            [function(list(shards), rank, world_size, worker, num_workers) for worker in range(num_workers)]
            for rank in range(world_size)
        ]

    return call


def _shards_compare(case, got, expected):
    shards, world_size, num_workers = case.args
    readers: dict[str, list[str]] = {}
    for rank, workers in enumerate(got):
        for worker, share in enumerate(workers):
            if not isinstance(share, list | tuple) or not all(s in shards for s in share):
                raise Mismatch(
                    f"{case.where} rank {rank}, worker {worker} got {share!r}; expected a list of shard names"
                )
            for shard in share:
                readers.setdefault(shard, []).append(f"(rank {rank}, worker {worker})")
    for shard in shards:
        if len(readers.get(shard, [])) > 1:
            raise Mismatch(f"{case.where} shard {shard!r} is read by {' and '.join(readers[shard])}")
    missing = [shard for shard in shards if shard not in readers]
    if missing:
        raise Mismatch(f"{case.where} no worker reads shards {missing[:6]}: your shares are {got}")
    totals = [sum(len(share) for share in workers) for workers in got]
    if max(totals) - min(totals) > 1:
        wanted = [sum(len(share) for share in workers) for workers in expected]
        raise Mismatch(
            f"{case.where} your ranks read {totals} shards; expected shares that differ by at most one, "
            f"{wanted}: a rank with fewer runs out of batches first and the others wait for it"
        )
    for rank, workers in enumerate(got):
        sizes = [len(share) for share in workers]
        if max(sizes) - min(sizes) > 1:
            raise Mismatch(
                f"{case.where} the workers of rank {rank} read {sizes} shards; "
                f"expected shares that differ by at most one, {[len(s) for s in expected[rank]]}"
            )


SHARDS_PER_RANK_AND_WORKER = Drill(
    id="shards_per_rank_and_worker",
    title="Which shards a worker of each rank reads",
    page="week-2/day-6/formats-and-failures",
    question="webdataset",
    difficulty="easy",
    function="worker_shards",
    statement=(
        "Write `worker_shards(shards, rank, world_size, worker_id, num_workers) -> list[str]`: the "
        "shard files that `DataLoader` worker `worker_id` of training process `rank` reads. Across "
        "all ranks and workers every shard must be read exactly once, the ranks' totals must differ "
        "by at most one shard, and so must the shares of the workers within a rank."
    ),
    hints=(
        "Split twice, as `wds.split_by_node` then `wds.split_by_worker` do: first the ranks, "
        "then the workers of each rank split what their rank got.",
        "Every `world_size`-th shard from `rank` on is `shards[rank::world_size]`; apply the same "
        "slicing to that for the workers.",
        "Splitting by worker alone gives every rank the same shards; one flat split into "
        "`world_size * num_workers` shares can leave one rank two shards short.",
    ),
    reference=_worker_shards,
    named_cases=_shards_named,
    generated=_shards_generated(),
    compare=_shards_compare,
    adapter=_every_rank_and_worker,
)


# --- string_array_without_objects ---------------------------------------------------------------


class _StringArray:
    def __init__(self, strings):
        encoded = [s.encode("utf-8") for s in strings]
        self.offsets = np.cumsum([0] + [len(b) for b in encoded], dtype=np.int64)
        self.buffer = np.frombuffer(b"".join(encoded), dtype=np.uint8)

    def __len__(self):
        return len(self.offsets) - 1

    def __getitem__(self, i):
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"index {i} is out of range for {n} strings")
        return self.buffer[self.offsets[i] : self.offsets[i + 1]].tobytes().decode("utf-8")


# One object each, whose reading writes no other object: a worker copies only the page of its header.
_ONE_OBJECT_TYPES = (np.ndarray, torch.Tensor, np.generic, bytes, str, int, float, bool, type(None))


def _held_values(array):
    fields = dict(vars(array)) if hasattr(array, "__dict__") else {}
    for name in getattr(type(array), "__slots__", ()):
        if hasattr(array, name):
            fields[name] = getattr(array, name)
    return fields


def _nbytes(value):
    if isinstance(value, np.ndarray):
        return value.nbytes
    if isinstance(value, torch.Tensor):
        return value.numel() * value.element_size()
    if isinstance(value, str):
        return len(value.encode("utf-8"))
    return len(value) if isinstance(value, bytes) else 0


def _probe_string_array(cls):
    """Builds the reader's array and reads it as a worker would: every item, from both ends."""

    def call(strings):
        array = cls(list(strings))
        fields = _held_values(array)
        n = len(array)
        items = [array[i] for i in range(n)]
        from_the_end = [array[i] for i in range(-n, 0)]
        outside = {}
        for i in (n, -n - 1):
            try:
                outside[i] = f"returned {array[i]!r}"
            except IndexError:
                outside[i] = "IndexError"
            except Exception as error:  # noqa: BLE001  reported as the wrong exception
                outside[i] = f"raised {type(error).__name__}"
        return {"fields": fields, "len": n, "items": items, "from_the_end": from_the_end, "outside": outside}

    return call


def _strings_where(strings):
    shown = repr(strings) if len(strings) <= 4 else f"[{', '.join(map(repr, strings[:3]))}, ...]"
    return f"for {len(strings)} string{'' if len(strings) == 1 else 's'} {shown}"


def _strings_case(strings):
    return Case(_strings_where(strings), (list(strings),))


def _strings_named():
    return [
        _strings_case(["cat.jpg", "dog.jpg", "bird.jpg"]),
        _strings_case(["é", "日本", "", "a"]),
        _strings_case([]),
        _strings_case(["x"]),
        _strings_case([f"{i}.png" for i in range(12)] + ["/data/" + "a_long_folder_name/" * 6 + "0.png"]),
    ]


@st.composite
def _strings_generated(draw):
    text = st.text(st.characters(codec="utf-8"), max_size=6)
    return _strings_case(draw(st.lists(text, max_size=8)))


def _strings_compare(case, got, expected):
    (strings,) = case.args
    for name, value in got["fields"].items():
        objects = isinstance(value, np.ndarray) and value.dtype == object
        if objects or not isinstance(value, _ONE_OBJECT_TYPES):
            kind = "NumPy array of objects" if objects else type(value).__name__
            raise Mismatch(
                f"{case.where} your StringArray keeps a {kind} in self.{name}: reading its items writes "
                "their reference counts, so every forked worker copies it; keep one buffer of bytes "
                "and an array of offsets"
            )
    if got["len"] != len(strings):
        raise Mismatch(f"{case.where} len() of your StringArray is {got['len']!r}; expected {len(strings)}")
    for items, start in ((got["items"], 0), (got["from_the_end"], -len(strings))):
        for i, (mine, wanted) in enumerate(zip(items, strings, strict=True), start):
            if not isinstance(mine, str) or mine != wanted:
                raise Mismatch(f"{case.where} array[{i}] is {mine!r}; expected {wanted!r}")
    for i, what in got["outside"].items():
        if what != "IndexError":
            raise Mismatch(
                f"{case.where} array[{i}] {what}; expected IndexError, which also ends a `for` loop "
                "over the array"
            )
    text_bytes = sum(len(s.encode("utf-8")) for s in strings)
    held = sum(_nbytes(value) for value in got["fields"].values())
    allowed = text_bytes + 16 * (len(strings) + 1) + 64
    if held > allowed:
        raise Mismatch(
            f"{case.where} your StringArray holds {held} bytes of arrays for {text_bytes} bytes of "
            f"UTF-8 text (bytes and offsets need at most {allowed}): a fixed-width array pads every "
            "string to the longest; store the bytes one after another and where each string starts"
        )


STRING_ARRAY_WITHOUT_OBJECTS = Drill(
    id="string_array_without_objects",
    title="File names that forked workers do not copy",
    page="week-2/day-6/worker-memory-and-transfer",
    question="copy-on-write",
    difficulty="medium",
    function="StringArray",
    statement=(
        "Write a class `StringArray(strings)` for a dataset's file names that forked workers can read "
        "without copying: `len(array)` and `array[i]` work as for the list `strings` (negative `i` "
        "counts from the end, out of range raises `IndexError`), but it keeps no Python object per "
        "string: only NumPy arrays or tensors, one holding the UTF-8 bytes of all strings after each "
        "other and one the offsets where each starts."
    ),
    hints=(
        "`s.encode('utf-8')` gives the bytes; `np.frombuffer(b''.join(encoded), dtype=np.uint8)` "
        "makes them one array.",
        "Keep `n + 1` offsets, starting at 0, from `np.cumsum` of the byte lengths: string `i` is "
        "`buffer[offsets[i]:offsets[i + 1]]`. `len(s)` counts characters, not bytes.",
        "Turn a negative `i` into `i + n` and check `0 <= i < n` before slicing; decode with "
        "`.tobytes().decode('utf-8')`.",
    ),
    reference=_StringArray,
    named_cases=_strings_named,
    generated=_strings_generated(),
    compare=_strings_compare,
    adapter=_probe_string_array,
)


# --- seed_worker_generators ---------------------------------------------------------------------

_DRAWS_PER_WORKER = 3
_NOT_RUN = "the reference is not run"


class _AugmentedDataset(Dataset):
    """Draws its "augmentations" from a generator it holds, made once in ``__init__``."""

    def __init__(self, size):
        self.size = size
        self.rng = np.random.default_rng(0)

    def __len__(self):
        return self.size

    def __getitem__(self, index):
        return int(self.rng.integers(1_000_000))


def _seed_worker(worker_id):
    info = torch.utils.data.get_worker_info()
    info.dataset.rng = np.random.default_rng(info.seed)  # differs per worker and per epoch


def _simulated_epochs(init_fn, num_workers, base_seeds):
    """Each epoch's workers as torch starts them, run one after another in this process.

    What a worker does before ``worker_init_fn`` is copied from torch's ``_worker_loop``: it seeds
    ``random``, torch and NumPy, and sets the ``WorkerInfo`` that ``get_worker_info()`` returns.
    Running it here, not in processes, keeps the check fast; one named case runs a real loader.
    """
    main = _AugmentedDataset(_DRAWS_PER_WORKER * num_workers)
    saved = random.getstate(), np.random.get_state(), torch.get_rng_state()
    epochs = []
    try:
        for base_seed in base_seeds:
            draws = []
            for worker_id in range(num_workers):
                dataset = copy.deepcopy(main)  # a forked worker's copy of the main process's dataset
                seed = base_seed + worker_id
                random.seed(seed)
                torch.default_generator.manual_seed(seed)  # torch.manual_seed, less its CUDA part
                np.random.seed(torch_worker._generate_state(base_seed, worker_id))
                torch_worker._worker_info = torch_worker.WorkerInfo(
                    id=worker_id, num_workers=num_workers, seed=seed, dataset=dataset
                )
                init_fn(worker_id)
                draws.append([dataset[i] for i in range(_DRAWS_PER_WORKER)])
            epochs.append(draws)
    finally:
        torch_worker._worker_info = None
        random.setstate(saved[0])
        np.random.set_state(saved[1])
        torch.set_rng_state(saved[2])
    return epochs


def _loader_epochs(init_fn, num_workers, seed, epochs=2):
    """A real DataLoader: batch k of an epoch is worker k's, since batches go to workers in turn."""
    loader = DataLoader(
        _AugmentedDataset(_DRAWS_PER_WORKER * num_workers),
        batch_size=_DRAWS_PER_WORKER,
        num_workers=num_workers,
        worker_init_fn=init_fn,
        generator=torch.Generator().manual_seed(seed),
        # The reader's file is loaded under a name that a spawned worker cannot import it by.
        multiprocessing_context="fork",
    )
    return [[batch.tolist() for batch in loader] for _ in range(epochs)]


def _run_workers(init_fn):
    """Two epochs of draws per worker, and for a simulated case a second run with the same seeds."""

    def call(mode, num_workers, seeds):
        if init_fn is _seed_worker:
            # The checks are properties of the reader's own draws; the reference's would only be
            # thrown away, and a real loader's worker processes cost most of the check's time.
            return _NOT_RUN
        if mode == "loader":
            return _loader_epochs(init_fn, num_workers, seeds[0]), None
        return _simulated_epochs(init_fn, num_workers, seeds), _simulated_epochs(init_fn, num_workers, seeds)

    return call


def _seeding_case(num_workers, seeds):
    where = f"for num_workers={num_workers} and the epochs' base seeds {seeds}"
    return Case(where, ("simulated", num_workers, seeds))


def _seeding_named():
    simulated = [_seeding_case(2, [12345, 67890]), _seeding_case(1, [3, 4]), _seeding_case(4, [2**40 + 1, 7])]
    if "fork" not in multiprocessing.get_all_start_methods():  # Windows: the simulated workers only
        return simulated
    real = Case("for a real DataLoader with num_workers=2 and generator seed 0", ("loader", 2, [0]))
    return [*simulated, real]


@st.composite
def _seeding_generated(draw):
    seeds = draw(st.lists(st.integers(0, 2**62), min_size=2, max_size=2, unique=True))
    return _seeding_case(draw(st.integers(1, 4)), seeds)


def _seeding_compare(case, got, expected):
    if got is _NOT_RUN:
        return  # the function checked is the reference itself
    run, again = got
    if again is not None and again != run:
        raise Mismatch(
            f"{case.where} two runs with the same seeds draw {run[0]} and then {again[0]}: seed the "
            "generator from the worker's seed, not from the clock or the OS"
        )
    for epoch, draws in enumerate(run, 1):
        for a in range(len(draws)):
            for b in range(a + 1, len(draws)):
                if draws[a] == draws[b]:
                    raise Mismatch(
                        f"{case.where} in epoch {epoch} workers {a} and {b} both draw {draws[a]}: "
                        "each worker's copy of dataset.rng starts in the same state"
                    )
    for worker, (first, second) in enumerate(zip(run[0], run[1], strict=True)):
        if first == second:
            raise Mismatch(
                f"{case.where} worker {worker} draws {first} in epoch 1 and again in epoch 2: its "
                "generator starts every epoch in the same state (the worker's id is the same every epoch)"
            )


SEED_WORKER_GENERATORS = Drill(
    id="seed_worker_generators",
    title="A worker_init_fn that gives every worker its own stream",
    page="week-2/day-6/prefetching-seeding-and-main-guard",
    question="worker-init-fn",
    difficulty="medium",
    function="worker_init_fn",
    statement=(
        "A dataset draws its random augmentations from `self.rng`, a NumPy `Generator` made in "
        "`__init__` by `np.random.default_rng(0)`. Write `worker_init_fn(worker_id)` for its "
        "`DataLoader` so that each worker draws different numbers, different again every epoch, "
        "and the same ones in every run of a loader given `generator=torch.Generator().manual_seed(s)`."
    ),
    hints=(
        "Inside a worker, `torch.utils.data.get_worker_info()` gives `.dataset` (the worker's own "
        "copy) and `.seed`, which differs per worker and per epoch and follows the loader's `generator`.",
        "Seeding `np.random` or `random` does not reach a generator the dataset holds: replace "
        "`dataset.rng` itself.",
        "`np.random.default_rng(info.seed)`; `worker_id` alone repeats the same numbers every epoch.",
    ),
    reference=_seed_worker,
    named_cases=_seeding_named,
    generated=_seeding_generated(),
    compare=_seeding_compare,
    adapter=_run_workers,
)


# --- collate_like_default -----------------------------------------------------------------------


def _default_collate(batch):
    return default_collate(batch)


def _leaf(kind, rng):
    """One field of a sample: ``kind`` is what ``__getitem__`` returns, e.g. ('array', (2, 3), 'float32')."""
    name, shape, dtype = kind
    values = rng.integers(-9, 10, size=shape)
    if name == "tensor":
        return torch.from_numpy(values.astype(dtype))
    if name == "array":
        return values.astype(dtype)
    if name == "numpy scalar":
        return np.dtype(dtype).type(values)
    if name == "int":
        return int(values)
    if name == "float":
        return float(values) / 2
    return str(rng.choice(["cat", "dog", "bird"]))


def _sample(schema, rng):
    if isinstance(schema, dict):
        return {key: _sample(value, rng) for key, value in schema.items()}
    if isinstance(schema, list | tuple) and not isinstance(schema[0], str):
        return type(schema)(_sample(value, rng) for value in schema)
    return _leaf(schema, rng)


def _describe(schema):
    if isinstance(schema, dict):
        return "{" + ", ".join(f"{key!r}: {_describe(value)}" for key, value in schema.items()) + "}"
    if isinstance(schema, list) and not isinstance(schema[0], str):
        return "[" + ", ".join(map(_describe, schema)) + "]"
    if isinstance(schema, tuple) and not isinstance(schema[0], str):
        return "(" + ", ".join(map(_describe, schema)) + ("," if len(schema) == 1 else "") + ")"
    name, shape, dtype = schema
    if name in ("tensor", "array"):
        return f"{name} {shape_text(shape)} {dtype}"
    return f"numpy {dtype}" if name == "numpy scalar" else name


def _collate_case(schema, size, seed=0, transposed=False):
    rng = np.random.default_rng(seed)
    batch = [_sample(schema, rng) for _ in range(size)]
    how = ""
    if transposed:  # the same values in non-contiguous tensors
        batch = [(sample[0].t().contiguous().t(), *sample[1:]) for sample in batch]
        how = " (non-contiguous tensors)"
    samples = f"{size} sample{'' if size == 1 else 's'}"
    return Case(f"for a batch of {samples} like {_describe(schema)}{how}", (batch,))


def _tensor(shape, dtype="float32"):
    return ("tensor", shape, dtype)


_FLOAT, _STR = ("float", (), ""), ("str", (), "")


def _collate_named():
    return [
        _collate_case((("array", (2, 3), "float32"), ("int", (), "")), 2),
        _collate_case({"image": _tensor((1, 2, 2)), "label": _FLOAT, "name": _STR}, 3),
        _collate_case((_tensor((2,)), ("numpy scalar", (), "int64")), 2),  # labels read by pandas
        _collate_case({"pair": (("array", (2,), "int32"), _FLOAT), "tags": [_STR, _STR]}, 2),
        _collate_case(("int", (), ""), 1),
        _collate_case((_tensor((3, 2), "int64"), _STR), 2, transposed=True),
    ]


_LEAVES = [
    ("tensor", "float32"),
    ("tensor", "int64"),
    ("array", "float64"),
    ("array", "uint8"),
    ("numpy scalar", "float32"),
    ("numpy scalar", "int64"),
    ("int", ""),
    ("float", ""),
    ("str", ""),
]


@st.composite
def _collate_schema(draw, depth=0):
    if depth == 2 or draw(st.booleans()):
        name, dtype = draw(st.sampled_from(_LEAVES))
        shape = tuple(draw(st.lists(st.integers(0, 3), max_size=2))) if name in ("tensor", "array") else ()
        return (name, shape, dtype)
    fields = draw(st.lists(_collate_schema(depth + 1), min_size=1, max_size=3))
    container = draw(st.sampled_from(["dict", "tuple", "list"]))
    if container == "dict":
        return {f"k{i}": field for i, field in enumerate(fields)}
    return tuple(fields) if container == "tuple" else fields


@st.composite
def _collate_generated(draw):
    return _collate_case(draw(_collate_schema()), draw(st.integers(1, 4)), draw(st.integers(0, 1000)))


def _same_batch(case, path, got, expected):
    if isinstance(expected, torch.Tensor):
        expect_tensor(case, path, got, expected)
    elif isinstance(expected, dict):
        if not isinstance(got, dict):
            raise Mismatch(f"{case.where} your {path} is a {type(got).__name__}; expected a dict of batches")
        if sorted(got) != sorted(expected):
            raise Mismatch(
                f"{case.where} your {path} has the keys {sorted(got)}; expected {sorted(expected)}"
            )
        for key in expected:
            _same_batch(case, f"{path}[{key!r}]", got[key], expected[key])
    elif isinstance(expected, list | tuple):
        if not isinstance(got, list | tuple) or len(got) != len(expected):
            what = f"a {type(got).__name__}" if not isinstance(got, list | tuple) else f"{len(got)} long"
            raise Mismatch(f"{case.where} your {path} is {what}; expected a list of {len(expected)}")
        strings = all(isinstance(item, str) for item in expected)  # "strings a list": a tuple will do
        if not strings and type(got).__name__ != type(expected).__name__:  # default_collate's contract
            raise Mismatch(
                f"{case.where} your {path} is a {type(got).__name__}; expected a {type(expected).__name__}, "
                "as default_collate returns for a sequence of samples"
            )
        for i, (mine, wanted) in enumerate(zip(got, expected, strict=True)):
            _same_batch(case, f"{path}[{i}]", mine, wanted)
    elif got != expected or type(got) is not type(expected):
        raise Mismatch(f"{case.where} your {path} is {got!r}; expected {expected!r}")


def _collate_compare(case, got, expected):
    _same_batch(case, "batch", got, expected)


COLLATE_LIKE_DEFAULT = Drill(
    id="collate_like_default",
    title="What default_collate does with arrays, numbers and strings",
    page="week-2/day-6/datasets-and-loaders",
    question="getitem-returns-tensors",
    difficulty="medium",
    function="collate",
    statement=(
        "Write `collate(batch)`, which does what `default_collate` does, without calling it: `batch` is "
        "a non-empty list of samples of one structure, built of tensors, NumPy arrays and scalars, "
        "Python `int`, `float` and `str`, and dicts, tuples and lists of those. Tensors and arrays "
        "of one shape become one stacked tensor, numbers a tensor of shape `(B,)`, strings a list, "
        "and a dict a dict of batches; a tuple or list a list of batches."
    ),
    hints=(
        "Look at the first sample to decide what the batch is, then recurse: for a dict, collate "
        "`[sample[key] for sample in batch]` for each key; for a tuple, `zip(*batch)`.",
        "`torch.as_tensor` wraps an array (or a list of NumPy scalars) with its dtype, then `torch.stack`.",
        "Python numbers keep their precision: `int` gives int64 and `float` float64, while "
        "`torch.tensor([0.5, 1.0])` makes float32. Test `str` before sequences: a string is one too.",
    ),
    reference=_default_collate,
    named_cases=_collate_named,
    generated=_collate_generated(),
    compare=_collate_compare,
    # default_collate and the functions it dispatches to, however imported
    forbidden=Forbidden(
        files=(torch.utils.data._utils.collate.__file__,), instead="the drill asks you to write it"
    ),
)


# --- pad_images_collate -------------------------------------------------------------------------


def _pad_images(images):
    channels = images[0].shape[0]
    max_h = max(image.shape[1] for image in images)
    max_w = max(image.shape[2] for image in images)
    batch = images[0].new_zeros(len(images), channels, max_h, max_w)
    mask = torch.zeros(len(images), max_h, max_w, dtype=torch.bool)
    for i, image in enumerate(images):
        h, w = image.shape[1:]
        batch[i, :, :h, :w] = image  # the top-left corner; the rest stays zero
        mask[i, :h, :w] = True
    sizes = torch.tensor([list(image.shape[1:]) for image in images], dtype=torch.int64)
    return batch, sizes, mask


def _images_case(shapes, dtype=torch.float32, how="", seed=0, black=()):
    generator = torch.Generator().manual_seed(seed)
    images = [torch.randint(1, 100, shape, generator=generator).to(dtype) for shape in shapes]
    for index in black:  # an all-zero image is real pixels all the same: the mask says so
        images[index].zero_()
        how += f" (image {index} all black, zeros)"
    if how.startswith(" (channels-last"):
        images = [image.permute(1, 2, 0).contiguous().permute(2, 0, 1) for image in images]
    shown = ", ".join(shape_text(shape) for shape in shapes)
    return Case(f"for images of shapes {shown} ({dtype}){how}", (images,))


def _images_named():
    return [
        _images_case([(1, 2, 3), (1, 3, 1)]),
        _images_case([(3, 2, 2)]),
        _images_case([(2, 2, 2), (2, 2, 2)]),
        _images_case([(1, 0, 2), (1, 2, 1)]),
        _images_case([(3, 4, 2), (3, 1, 5), (3, 3, 3)], torch.uint8),
        _images_case([(3, 2, 3), (3, 3, 2)], how=" (channels-last, non-contiguous)"),
        _images_case([(1, 2, 2), (1, 3, 3)], black=(0,)),
    ]


@st.composite
def _images_generated(draw):
    channels = draw(st.integers(1, 3))
    sizes = draw(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=4))
    dtype = draw(st.sampled_from([torch.float32, torch.uint8, torch.int64]))
    return _images_case([(channels, h, w) for h, w in sizes], dtype, seed=draw(st.integers(0, 1000)))


def _images_compare(case, got, expected):
    if not isinstance(got, tuple | list) or len(got) != 3:
        raise Mismatch(f"{case.where} you returned a {type(got).__name__}; expected (batch, sizes, mask)")
    (images,) = case.args
    batch, wanted = got[0], expected[0]
    if not isinstance(batch, torch.Tensor) or batch.shape != wanted.shape or batch.dtype != wanted.dtype:
        expect_tensor(case, "batch", batch, wanted)  # says which of type, shape and dtype differs
    for i, image in enumerate(images):
        h, w = image.shape[1:]
        if not torch.equal(batch[i, :, :h, :w], image):
            raise Mismatch(
                f"{case.where} your batch[{i}, :, :{h}, :{w}] is not image {i}: "
                f"put image {i} in the top-left corner of batch[{i}]"
            )
    for name, mine, wanted in zip(("batch", "sizes", "mask"), got, expected, strict=True):
        expect_tensor(case, name, mine, wanted)


PAD_IMAGES_COLLATE = Drill(
    id="pad_images_collate",
    title="A collate that pads images of different sizes",
    page="week-2/day-6/collation-and-length-batching",
    question="collate-fn",
    difficulty="medium",
    function="pad_images",
    statement=(
        "Write `pad_images(images) -> (batch, sizes, mask)` for a `collate_fn`: `images` is a "
        "non-empty list of `(C, H_i, W_i)` tensors of one dtype and channel count. Return `batch`, "
        "`(B, C, max H, max W)` with each image in its top-left corner and zeros elsewhere, `sizes`, "
        "an int64 `(B, 2)` of each `(H_i, W_i)`, and `mask`, a bool `(B, max H, max W)`, True on real pixels."
    ),
    hints=(
        "`pad_sequence` pads only the first dimension, and an image's first is its channels: "
        "pad height and width yourself.",
        "Allocate `images[0].new_zeros(B, C, max_h, max_w)` and copy each image into "
        "`batch[i, :, :h, :w]`; set `mask[i, :h, :w] = True` the same way.",
        "`F.pad` takes the last dimension first: `(left, right, top, bottom)`; the padding goes "
        "right and bottom.",
    ),
    reference=_pad_images,
    named_cases=_images_named,
    generated=_images_generated(),
    compare=_images_compare,
)

# --- shard_iterable_dataset ---------------------------------------------------------------------


class _WorkerInfo:
    """What ``torch.utils.data.get_worker_info()`` returns inside a worker: its id and the count."""

    def __init__(self, id, num_workers):  # noqa: A002  the attribute names of torch's WorkerInfo
        self.id, self.num_workers = id, num_workers

    def __repr__(self):
        return f"WorkerInfo(id={self.id}, num_workers={self.num_workers})"


def _worker_items(n_items, worker_info):
    if worker_info is None:  # num_workers=0: the main process reads everything
        return list(range(n_items))
    return list(range(worker_info.id, n_items, worker_info.num_workers))


def _shard_case(n_items, num_workers):
    infos = [None] if num_workers == 0 else [_WorkerInfo(i, num_workers) for i in range(num_workers)]
    return Case(f"for {n_items} items and num_workers={num_workers}", (n_items, infos))


def _shard_named():
    return [_shard_case(10, 0), _shard_case(10, 2), _shard_case(10, 3), _shard_case(2, 4), _shard_case(0, 2)]


@st.composite
def _shard_generated(draw):
    return _shard_case(draw(st.integers(0, 30)), draw(st.integers(0, 6)))


def _all_workers(function):
    """The drill's function as the checker calls it: once per worker, the lists side by side."""

    def every_worker(n_items, infos):
        return [function(n_items, info) for info in infos]

    return every_worker


def _shard_compare(case, got, expected):
    n_items, infos = case.args
    for info, items in zip(infos, got, strict=True):
        if not isinstance(items, list | tuple | range) or not all(isinstance(i, int) for i in items):
            raise Mismatch(f"{case.where} worker {info} got {items!r}; expected a list of int indices")
    seen = [i for items in got for i in items]
    repeated = sorted({i for i in seen if seen.count(i) > 1})
    if repeated:
        raise Mismatch(
            f"{case.where} items {repeated[:6]} are read by more than one worker: "
            f"your workers yield {[list(items) for items in got]}"
        )
    missing = sorted(set(range(n_items)) - set(seen))
    if missing or set(seen) - set(range(n_items)):
        raise Mismatch(
            f"{case.where} your workers yield {[list(items) for items in got]}; every index in "
            f"range({n_items}) must be read exactly once (missing: {missing[:6]})"
        )
    sizes = [len(items) for items in got]
    if max(sizes) - min(sizes) > 1:
        raise Mismatch(
            f"{case.where} your workers get {sizes} items; split them evenly: {[len(e) for e in expected]}"
        )


SHARD_ITERABLE_DATASET = Drill(
    id="shard_iterable_dataset",
    title="Sharding an IterableDataset across workers",
    page="week-2/day-6/workers-and-the-gil",
    question="iterable-vs-map-style",
    difficulty="easy",
    function="worker_items",
    statement=(
        "An `IterableDataset` over `n_items` records calls `torch.utils.data.get_worker_info()` in its "
        "`__iter__` and yields only its own share. Write `worker_items(n_items, worker_info) -> list[int]`, "
        "the indices one worker reads: `worker_info` is `None` in the main process (`num_workers=0`), "
        "else an object with `.id` (0 to `num_workers - 1`) and `.num_workers`. Together the workers "
        "must read every index exactly once, in shares that differ by at most one."
    ),
    hints=(
        "Without sharding, each of the `num_workers` copies of the dataset yields every record: "
        "`num_workers` duplicates of each.",
        "`None` means there is no worker process: return every index.",
        "Take every `num_workers`-th index starting at `id`: `range(id, n_items, num_workers)`.",
    ),
    reference=_worker_items,
    named_cases=_shard_named,
    generated=_shard_generated(),
    compare=_shard_compare,
    adapter=_all_workers,
)


# --- length_bucketing_batches -------------------------------------------------------------------


def _bucket_batches(lengths, max_tokens):
    batches, batch, longest = [], [], 0
    for index in sorted(range(len(lengths)), key=lambda i: lengths[i]):
        grown = max(longest, lengths[index])
        if batch and grown * (len(batch) + 1) > max_tokens:
            batches.append(batch)
            batch, grown = [], lengths[index]
        batch.append(index)
        longest = grown
    if batch:
        batches.append(batch)
    return batches


def _padded(lengths, batches):
    return sum(max(lengths[i] for i in batch) * len(batch) for batch in batches if batch)


def _bucket_case(lengths, max_tokens):
    return Case(f"for lengths {list(lengths)} and max_tokens={max_tokens}", (list(lengths), max_tokens))


def _bucket_named():
    return [
        _bucket_case([5, 1, 5, 1], 10),
        _bucket_case([3, 8, 2, 7, 1, 9], 16),
        _bucket_case([4], 4),
        _bucket_case([12, 2], 10),  # a sequence longer than the budget gets a batch of its own
        _bucket_case([12, 15, 11], 10),  # every sequence over the budget: three batches of one
        _bucket_case([], 8),
        _bucket_case([2, 2, 2, 2, 2, 2], 12),  # all fit in one batch
    ]


@st.composite
def _bucket_generated(draw):
    lengths = draw(st.lists(st.integers(1, 12), max_size=16))
    return _bucket_case(lengths, draw(st.integers(4, 40)))


def _bucket_compare(case, got, expected):
    lengths, max_tokens = case.args
    if not isinstance(got, list) or not all(isinstance(b, list) for b in got):
        raise Mismatch(f"{case.where} you returned {got!r}; expected a list of lists of indices")
    seen = sorted(i for batch in got for i in batch)
    if seen != list(range(len(lengths))):
        raise Mismatch(
            f"{case.where} your batches {got} hold indices {seen}; expected each of "
            f"range({len(lengths)}) exactly once"
        )
    if any(not batch for batch in got):
        raise Mismatch(f"{case.where} your batches {got} include an empty batch")
    for batch in got:
        cost = max(lengths[i] for i in batch) * len(batch)
        if len(batch) > 1 and cost > max_tokens:
            raise Mismatch(
                f"{case.where} your batch {batch} pads to {len(batch)} x {max(lengths[i] for i in batch)} = "
                f"{cost} tokens, over max_tokens={max_tokens}"
            )
    if len(got) > len(expected):
        raise Mismatch(
            f"{case.where} your {len(got)} batches {got} are more than the {len(expected)} that filling "
            f"batches greedily in order of length gives, {expected}"
        )
    if _padded(lengths, got) > _padded(lengths, expected):
        raise Mismatch(
            f"{case.where} your batches {got} pad to {_padded(lengths, got)} tokens in all; batching in "
            f"order of length gives {expected}, {_padded(lengths, expected)} tokens"
        )


LENGTH_BUCKETING_BATCHES = Drill(
    id="length_bucketing_batches",
    title="Batches of similar length under a token budget",
    page="week-2/day-6/collation-and-length-batching",
    question="dynamic-batching",
    difficulty="medium",
    function="bucket_batches",
    statement=(
        "Write `bucket_batches(lengths, max_tokens) -> list[list[int]]`, the batches of a "
        "`batch_sampler`: `lengths` is a list of sequence lengths (ints >= 1). Return lists of "
        "indices that hold every index exactly once, no empty batch, each batch padding to at most "
        "`max_tokens` tokens (its size times its longest length; a sequence longer than `max_tokens` "
        "goes alone), and in all no more batches and no more padded tokens than filling batches greedily "
        "in order of length."
    ),
    hints=(
        "Padding costs least when a batch's sequences have about the same length: "
        "sort the indices by length.",
        "Walk the sorted indices, adding each to the current batch while `(len(batch) + 1) * longest` "
        "stays within `max_tokens`; otherwise close the batch and start a new one.",
        "Keep the last, partial batch (a `batch_sampler` has no `drop_last` of its own), and return an "
        "empty list for no sequences.",
    ),
    reference=_bucket_batches,
    named_cases=_bucket_named,
    generated=_bucket_generated(),
    compare=_bucket_compare,
    tolerance="any batching with no more batches and padded tokens than the greedy one",
)


# --- balanced_sample_weights --------------------------------------------------------------------


def _sample_weights(labels):
    counts = torch.bincount(labels)
    return 1.0 / counts[labels].to(torch.float64)


def _labels_case(labels):
    return Case(f"for labels {list(labels)}", (torch.tensor(labels, dtype=torch.int64),))


def _weights_named():
    return [
        _labels_case([0, 0, 0, 1]),
        _labels_case([1, 0, 1, 1, 1, 0]),
        _labels_case([2, 2, 5]),  # classes 0, 1, 3, 4 have no sample
        _labels_case([3, 3, 3]),  # one class
        _labels_case([0]),
    ]


@st.composite
def _weights_generated(draw):
    return _labels_case(draw(st.lists(st.integers(0, 4), min_size=1, max_size=12)))


def _class_shares(labels, weights):
    shares = torch.zeros(int(labels.max()) + 1, dtype=torch.float64).index_add_(0, labels, weights)
    return {c: round(float(s / shares.sum()), 3) for c, s in enumerate(shares) if (labels == c).any()}


def _weights_compare(case, got, expected):
    (labels,) = case.args
    if isinstance(got, torch.Tensor) and got.dim() == 1 and got.numel() != labels.numel():
        raise Mismatch(
            f"{case.where} your weights have shape {shape_text(got.shape)}; expected "
            f"{shape_text(expected.shape)}: WeightedRandomSampler wants one weight per sample, not per class"
        )
    if not isinstance(got, torch.Tensor):
        raise Mismatch(f"{case.where} your weights are a {type(got).__name__}; expected a tensor")
    if got.shape != expected.shape:
        raise Mismatch(
            f"{case.where} your weights have shape {shape_text(got.shape)}; "
            f"expected {shape_text(expected.shape)}"
        )
    if not got.is_floating_point() or not bool((got > 0).all()):
        raise Mismatch(f"{case.where} your weights {got.tolist()} must be positive floats")
    got_shares = _class_shares(labels, got.to(torch.float64))
    want = _class_shares(labels, expected)
    if any(abs(got_shares[c] - want[c]) > 1e-3 for c in want):
        raise Mismatch(
            f"{case.where} the sampler with your weights draws the classes with probabilities "
            f"{got_shares}; expected {want}, the same for every class"
        )


BALANCED_SAMPLE_WEIGHTS = Drill(
    id="balanced_sample_weights",
    title="Class-balanced sample weights for WeightedRandomSampler",
    page="week-2/day-6/sampling-and-batch-size",
    question="weighted-random-sampler",
    difficulty="easy",
    function="sample_weights",
    statement=(
        "Write `sample_weights(labels) -> weights`: `labels` is an int64 tensor of shape `(N,)` "
        "holding class indices (some classes may have no sample). Return a float tensor of shape "
        "`(N,)`, one positive weight per sample, such that "
        "`WeightedRandomSampler(weights, num_samples=N)` draws every class present equally often. "
        "Any scale is accepted: the sampler normalizes."
    ),
    hints=(
        "The sampler picks sample `i` with probability `weights[i] / weights.sum()`, so a class's "
        "share is the sum of its samples' weights.",
        "Give each sample the weight `1 / (number of samples of its class)`: every class then sums to 1.",
        "`torch.bincount(labels)` counts each class; index the counts with `labels` to get one per sample.",
    ),
    reference=_sample_weights,
    named_cases=_weights_named,
    generated=_weights_generated(),
    compare=_weights_compare,
    tolerance="class probabilities within 0.001",
)


DRILLS = [  # in the order of the pages
    COLLATE_LIKE_DEFAULT,
    SHARD_ITERABLE_DATASET,
    SEED_WORKER_GENERATORS,
    STRING_ARRAY_WITHOUT_OBJECTS,
    PAD_IMAGES_COLLATE,
    LENGTH_BUCKETING_BATCHES,
    BALANCED_SAMPLE_WEIGHTS,
    SHARDS_PER_RANK_AND_WORKER,
]
