"""A snippet's randomness comes from the engine's seed (`docexec run --seed N`), never from a literal.

The engine seeds `random`, numpy and torch before a snippet runs; a snippet that seeds again with a
literal (`torch.manual_seed(0)`) prints the same draw under every seed, so `make seeds` could not
fail a claim that held for one draw only. A snippet that needs another stream derives it from the
engine's: `torch.manual_seed(torch.initial_seed() + 1)`. A literal stays only where a fixed draw is
the point of the page, said on its line: `# fixed seed: why`.
"""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest

from docexec import config
from docexec.execution.engine import Engine
from docexec.execution.result import Status

ROOT = Path(__file__).resolve().parents[2]
# One snippet for each way a draw reaches a snippet: torch's global generator, Python's `random`
# (a library's seed= argument), and a torch.Generator derived from torch.initial_seed().
SAMPLE = [
    "snippets/how-this-site-works/one_training_step.py",
    "snippets/week-2/day-6/formats-and-failures/webdataset_shuffle_is_local.py",
    "snippets/week-2/day-6/datasets-and-loaders/shuffle_true_reorders_every_epoch.py",
]
# Functions and classes whose first argument is a seed, and the keyword that names one.
SEEDING = {"manual_seed", "manual_seed_all", "seed", "default_rng", "RandomState", "SeedSequence", "Random"}
SEED_KEYWORDS = {"seed", "random_state"}
REASON = re.compile(r"#\s*fixed seed:\s*\S")


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _is_literal(node: ast.expr, constants: frozenset[str] = frozenset()) -> bool:
    """A number written in the code, arithmetic on numbers only (``2 ** 31 - 1``), or a name the
    module binds to one (``SEED = 0``)."""
    if isinstance(node, ast.Name):
        return node.id in constants
    return all(
        isinstance(part, (ast.Constant, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop, ast.expr_context))
        or isinstance(part, ast.Name) and part.id in constants
        for part in ast.walk(node)
    ) and any(isinstance(part, (ast.Constant, ast.Name)) for part in ast.walk(node))


def _constant_names(tree: ast.Module) -> frozenset[str]:
    """Module-level names assigned a literal number: ``SEED = 0``."""
    return frozenset(
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign) and _is_literal(node.value)
        for target in node.targets
        if isinstance(target, ast.Name)
    )


def _unseeded_generators(tree: ast.Module) -> set[ast.Call]:
    """``torch.Generator()`` not seeded in the same expression (it starts from torch's fixed default
    seed, whatever the engine's), and numpy's ``default_rng()`` with no seed (the OS's entropy)."""
    seeded = {
        id(node.func.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "manual_seed"
    }
    return {
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and not node.args and not node.keywords
        and (_name(node.func) == "Generator" and id(node) not in seeded or _name(node.func) == "default_rng")
    }


def literal_seeds(source: str) -> list[tuple[int, str]]:
    """(line, code) of each call that seeds with a literal, or makes a generator the engine's seed
    does not reach, and does not say why on its lines."""
    lines = source.splitlines()
    tree = ast.parse(source)
    constants = _constant_names(tree)
    unseeded = _unseeded_generators(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        seeds = [keyword.value for keyword in node.keywords if keyword.arg in SEED_KEYWORDS]
        if _name(node.func) in SEEDING and node.args:
            seeds.append(node.args[0])
        if node not in unseeded and not any(_is_literal(seed, constants) for seed in seeds):
            continue
        span = lines[node.lineno - 1 : node.end_lineno]
        if not any(REASON.search(line) for line in span):
            found.append((node.lineno, ast.get_source_segment(source, node) or ""))
    return sorted(found)


def test_the_lint_finds_literal_seeds_and_accepts_derived_or_explained_ones():
    source = (
        "import numpy as np, torch\n"
        "torch.manual_seed(0)\n"
        "g = torch.Generator().manual_seed(2 ** 10)\n"
        "rng = np.random.default_rng(seed=3)\n"
        "data = make(600, seed=1)\n"
        "torch.manual_seed(torch.initial_seed() + 1)\n"
        "rng = np.random.default_rng(torch.initial_seed())\n"
        "fixed = make(8, seed=0)  # fixed seed: the page shows these eight images\n"
        "x = torch.randn(3)\n"
        "SEED = 7\n"
        "torch.manual_seed(SEED + 1)\n"
        "g = torch.Generator()\n"
        "rng = np.random.default_rng()\n"
        "g = torch.Generator().manual_seed(torch.initial_seed())\n"
    )
    assert [line for line, _ in literal_seeds(source)] == [2, 3, 4, 5, 11, 12, 13]


ENGINE = Engine(ROOT)


@pytest.mark.parametrize("snippet", ENGINE.all_snippets())
def test_snippets_draw_from_the_engines_seed(snippet):
    # CUDA snippets too: a GPU machine runs them under `docexec run --seed N` like any other.
    found = literal_seeds((ROOT / snippet).read_text(encoding="utf-8"))
    assert not found, (
        f"{snippet} seeds with a literal, so every `--seed` prints the same draw:\n"
        + "\n".join(f"  line {line}: {code}" for line, code in found)
        + "\nderive it from the engine's seed (`torch.initial_seed()`), or say why on its line: "
        "`# fixed seed: why`"
    )


@pytest.mark.site_build  # it runs snippets, like a build; `make quick` leaves it out
def test_another_seed_prints_other_numbers():
    settings = config.from_environment(ROOT)
    outputs = {}
    for seed in (0, 1):
        results, _ = Engine(ROOT, settings.replace(seed=seed)).execute(SAMPLE, progress=False)
        failed = [path for path in SAMPLE if results[path].status != Status.PASSED]
        assert not failed, f"failed under seed {seed}: {failed}"
        outputs[seed] = {path: results[path].output for path in SAMPLE}
    same = [path for path in SAMPLE if outputs[0][path] == outputs[1][path]]
    assert not same, f"`--seed 1` printed what seed 0 printed: {same}"


def _seeds_run(count: int) -> tuple[list[int], str]:
    ran = subprocess.run(
        ["make", "--no-print-directory", "seeds", f"SEED_COUNT={count}", f"SEED_PATHS={SAMPLE[0]}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    drawn = re.search(r"^seeds:((?: \d+)+)$", ran.stdout, re.M)
    assert drawn, f"`make seeds` does not print the seeds it drew:\n{ran.stdout}"
    return [int(seed) for seed in drawn[1].split()], ran.stdout


@pytest.mark.site_build  # it runs snippets, like a build; `make quick` leaves it out
def test_make_seeds_draws_fresh_seeds_each_run_and_prints_them():
    """Seeds fixed in the Makefile are seeds a bound can be fitted to; drawn afresh, they are not."""
    first, output = _seeds_run(2)
    second, _ = _seeds_run(2)
    assert len(first) == len(second) == 2 and first != second
    assert all(0 < seed < 2**31 for seed in first + second)
    for seed in first:  # each run is named with its seed, so `docexec run --seed N` reproduces it
        assert f"seed {seed}: 1 executed" in output
