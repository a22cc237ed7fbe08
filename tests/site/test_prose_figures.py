"""Every measured number a page's prose states is one its snippets print, or a bound one asserts.

A figure typed into a paragraph from one run outside the engine ("agree on 14 of 15 picks" where the
build prints 13) or from one seed's draw goes stale without anyone noticing: the snippet is re-run
on every build, the sentence is not. Here each page's prose (not its code, headings, *Asked as*
quotes or drills) is read for the numbers that measure something (a decimal, a percentage, a
multiplier, a count "N of M", a quantity of time or memory, a number written in scientific
notation) and each must be shown on the same page: printed by one of its snippets as the same kind
of figure (a CUDA snippet's GPU recording counts; a percentage may be printed as a fraction, a ratio
as a decimal), in a figure's title, or written in the code of one of its snippets: an input
it sets ("150 ms" slow reads), or a bound an assert holds, the range the proof keeps for every seed
(comments do not count). A number the prose states for another reason (a documented default,
arithmetic on the page's own numbers, a hardware specification) is listed in `NOT_MEASURED` with its
source. A range measured over seeds outside the engine ("37 to 106 times over seeds 0 to 5") is
neither printed nor asserted: state the asserted bound instead, and let the output show this draw.
A lab's prose is its Markdown cells, held to the lab's own output.
"""

from __future__ import annotations

import ast
import dataclasses
import math
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from docexec import config
from docexec.directives import directives
from docexec.execution.engine import Engine
from docexec.site import SiteBuild, Use, engine_results, lab_snippets

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

# Numbers the prose states that no snippet measures, each with its source. Keyed by page and the
# number as the prose writes it; a key that no longer matches a sentence fails, so the
# list stays reviewed.
NOT_MEASURED: dict[tuple[str, str], str] = {
    ("docs/week-1/modules-and-optimization.md", "27.6"): "ln(1e-12) = -27.63, where BCELoss's backward floor "
    "of p * (1 - p) at 1e-12, which the sentence names, takes over: arithmetic from the text",
    ("docs/week-1/modules-and-optimization.md", "128"): "a sum over a batch of 128 is 128 times "
    "its mean: the batch size the snippet sets, as the sentence says",
    ("docs/week-2/day-6/sampling-and-batch-size.md", "50"): "the expected count, 1010 draws x 1/2 for "
    "class B / 10 samples = 50.5; the output prints each sample's count",
    ("docs/week-2/day-6/worker-memory-and-transfer.md", "18.4"): "32 x 3 x 224 x 224 float32 values = "
    "19,267,584 bytes = 18.375 MiB: arithmetic from the batch shape the sentence gives",
    ("docs/week-2/day-6/workers-and-the-gil.md", "20%"): "the review question's own figure, quoted in the "
    "*Asked as* above it (Review: 'Your GPU utilization is low (20%)')",
    ("docs/week-2/day-6/workers-and-the-gil.md", "50%"): "1/os.cpu_count() on 2 cores: arithmetic",
    ("docs/week-2/day-6/workers-and-the-gil.md", "6%"): "1/os.cpu_count() on 16 cores: arithmetic",
    ("docs/week-2/day-9/bottlenecks-leaks-and-hangs.md", "6"): "NVML's documented sample period for "
    "utilization, 1/6 s to 1 s (nvmlDeviceGetUtilizationRates in the NVML API reference)",
    ("docs/week-2/day-9/nan-loss-and-gradcheck.md", "16.636"): "24 ln 2 = 16.636: float32's 24-bit "
    "significand, arithmetic from the sentence",
    ("docs/week-2/day-9/nan-loss-and-gradcheck.md", "6e-8"): "float32's unit roundoff, 2^-24 = 5.96e-8 "
    "(torch.finfo(torch.float32).eps / 2)",
    ("docs/week-2/day-9/nan-loss-and-gradcheck.md", "2e-6"): "2 * eps, gradcheck's documented default "
    "eps=1e-6, which the sentence names: the central difference's denominator",
    ("docs/week-2/day-9/timing-flops-and-tensor-cores.md", "7.0"): "compute capability of Volta, NVIDIA's "
    "table of CUDA GPUs (developer.nvidia.com/cuda-gpus)",
    ("docs/week-2/day-9/timing-flops-and-tensor-cores.md", "7.5"): "compute capability of Turing, "
    "the same table",
    ("docs/week-2/day-9/timing-flops-and-tensor-cores.md", "9.0"): "compute capability of Hopper, "
    "the same table",
    ("docs/week-2/day-9/training-curves-and-eval-mode.md", "0.99"): "1 - 0.01, the BatchNorm momentum the "
    "snippet sets (Keras' documented default of 0.99 in its convention); 1 - 0.99^60 = 45% is arithmetic",
    ("docs/week-2/day-9/visualizing-models.md", "25%"): "chance for the page's four classes: 1/4",
}

NUMBER = r"\d+(?:,\d{3})*(?:\.\d+)?(?:e[-+]?\d+)?"
UNIT = (
    r"(?:%|×|x\b|times\b|ms\b|µs\b|us\b|ns\b|s\b|seconds?\b|minutes?\b|MB\b|MiB\b|GB\b|GiB\b|KB\b|"
    r"KiB\b|kB\b|TB\b|bytes\b|TFLOPS\b|GFLOPS\b|FLOPs?\b|samples/s\b|decades?\b|orders?\b)"
)
TOKEN = re.compile(rf"(?<![\w.]){NUMBER}(?![\w.]*\d)")
FOLLOWED_BY_UNIT = re.compile(rf"\s?{UNIT}")
# The first end of a range whose unit comes after the second ("40 to 100 times", "47% to 54%"), and
# a count out of a total ("14 of 15 picks").
RANGE_START = re.compile(rf"\s?(?:to|–|-|and)\s?(?:over |about |under )?{NUMBER}(?:\s?{UNIT}|\s+of\s+\d)")
COUNT = re.compile(r"\s+of\s+\d")
# A factor without a unit: "divide the learning rate by 60", "a factor of 4", "a 3-fold rise". The
# number is a ratio of two measured figures, as much an output as "60 times", though nothing after
# it says so.
FACTOR_BEFORE = re.compile(
    r"(?:\b(?:divid|multipl|scal|shrink|shrank|grow|grew|cut|reduc|increas|decreas|fall|fell|drop|ris|rose)\w*"
    r"\b[^.;:]{0,60}?\bby|\bfactor of)\s(?:about |roughly |nearly |almost |over |under |more than |less than "
    r"|at least |at most )?$",
    re.IGNORECASE,
)
FACTOR_AFTER = re.compile(r"-?fold\b")
VERSION = re.compile(
    r"(?:torch|PyTorch|Python|CUDA|cuDNN|NCCL|Triton|numpy|NumPy|MkDocs|mkdocs|Material|version|release"
    r"|builds with|sm_|PEP|Day|Week|Q)(?:\s+(?:before|since|up to|from))?\s*$",
)
# A percentage may be printed as a fraction, milliseconds as seconds.
SCALES = {"%": (1.0, 100.0), "ms": (1.0, 1e3), "µs": (1.0, 1e6), "us": (1.0, 1e6), "ns": (1.0, 1e9)}
RATIOS = {"%", "×", "x", "times", "decade", "decades", "order", "orders"}
MAGNITUDES = {"order", "orders", "decade", "decades"}  # held to a printed number's power of ten
DIMENSION = re.compile(rf"\s?[×x]\s?{NUMBER}")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
DRILL = re.compile(r"^#{2,3} Practice\b")
HEADING = re.compile(r"^(#+)\s")


@dataclasses.dataclass(frozen=True)
class Stated:
    """A measured number as a page's prose states it."""

    page: str  # the file, from the project root: docs/..., or a lab's snippet
    line: int
    text: str  # as written: "1.3", "61%", "3e-3"
    value: float
    scales: tuple[float, ...]  # what a printed number is multiplied by to be in the prose's unit
    ratio: bool  # "times", "%": a result, never an input the snippet sets
    magnitude: bool  # "25 orders of magnitude": a printed 1.6e-25 shows it
    sentence: str
    factor: bool = False  # "by 60": a ratio, or a setting the snippet writes ("a prefetch factor of 8")

    def where(self) -> str:
        return f"{self.page}:{self.line}: {self.text!r} in {self.sentence!r}"


def _prose_lines(markdown: str) -> Iterator[tuple[int, str]]:
    """The page's lines that are prose: not front matter, code, %run lines, headings, the questions
    quoted (*Asked as*) or a drill's section; inline code, links' targets and math left out."""
    lines = markdown.splitlines()
    fence = None
    quote = False
    drill_level = 0
    start = 0
    if lines and lines[0].strip() == "---":
        start = next((i + 1 for i in range(1, len(lines)) if lines[i].strip() == "---"), 0)
    for index in range(start, len(lines)):
        line = lines[index]
        opened = FENCE.match(line)
        if fence:
            if opened and opened.group(1).startswith(fence):
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            continue
        heading = HEADING.match(line)
        if heading:
            level = len(heading.group(1))
            if DRILL.match(line):
                drill_level = level
            elif drill_level and level <= drill_level:
                drill_level = 0
            continue
        if drill_level:
            continue
        if line.lstrip().startswith(("*Asked as:*", "*A common interview question")):
            quote = True
        if quote:
            quote = bool(line.strip())
            continue
        if line.lstrip().startswith(("%run", "///", "<")):
            continue
        yield index + 1, _plain(line)


def _plain(line: str) -> str:
    line = re.sub(rf"`[-−]?({NUMBER})`", r"\1", line)  # a figure set in code font: `1e-25`
    line = re.sub(r"`[^`]*`", " ", line)  # inline code
    line = re.sub(r"\$[^$]+\$", " ", line)  # math
    line = re.sub(r"\]\([^)]*\)", "]", line)  # a link's target
    line = re.sub(r"\{[^}]*\}", " ", line)  # attribute lists
    line = re.sub(r"\b\d{4}-\d{2}(?:-\d{2})?\b", " ", line)  # dates
    line = re.sub(r"\"[^\"]*\"|“[^”]*”", " ", line)  # quoted from a source: its claim, not the page's
    return line.replace("\u2009", " ").replace("\u00a0", " ")


def _value(text: str) -> float:
    return float(text.replace(",", ""))


def stated_numbers(page: str, markdown: str) -> list[Stated]:
    found = []
    lines = list(_prose_lines(markdown))
    for index, (line, text) in enumerate(lines):
        following = lines[index + 1][1] if index + 1 < len(lines) else ""
        for match in TOKEN.finditer(text):
            number = match.group()
            after = text[match.end() :] + " " + following  # "47% to" may end the line
            before = text[: match.start()]
            if not before.strip() and index:
                before = lines[index - 1][1]  # "torch" may end the line above
            unit = FOLLOWED_BY_UNIT.match(after)
            if unit is not None and DIMENSION.match(after):
                continue  # "4096 × 4096": a shape the snippet sets
            ranged = RANGE_START.match(after)
            factor = (
                unit is None
                and _value(number) not in (0, 1)  # "scales it by more than 1": a threshold, not a result
                and bool(FACTOR_BEFORE.search(before) or FACTOR_AFTER.match(after))
            )
            measured = unit or "." in number or "e" in number or ranged or COUNT.match(after) or factor
            if not measured or VERSION.search(before):
                continue
            named = (unit or ranged).group().split()[-1] if (unit or ranged) else ""
            named = "times" if factor and not ranged else "%" if named.endswith("%") else named
            found.append(
                Stated(
                    page,
                    line,
                    number + ("%" if unit is not None and "%" in unit.group() else ""),  # its key
                    _value(number),
                    SCALES.get(named, (1.0,)),
                    named in RATIOS,
                    named in MAGNITUDES,
                    text[max(0, match.start() - 60) : match.end() + 40].strip(),
                    factor,
                )
            )
    return found


@dataclasses.dataclass
class Printed:
    """The numbers a page's outputs show, by how they are written: a percentage ("47%", "605 of
    1000"), a ratio ("1.6x", "12.8×", "4 times"), a decimal or scientific figure ("0.58", "1.6e-25"),
    a whole number.
    A percentage in the prose is held to a printed percentage or fraction, a ratio to a printed
    ratio or decimal: a whole number that happens to match ("[1, 2]") does not show "2 times"."""

    percent: set[float] = dataclasses.field(default_factory=set)
    ratio: set[float] = dataclasses.field(default_factory=set)
    decimal: set[float] = dataclasses.field(default_factory=set)
    whole: set[float] = dataclasses.field(default_factory=set)

    def add(self, text: str) -> None:
        for match in re.finditer(rf"(?<![\w.])({NUMBER})(\s?%|\s?(?:x|×|times)\b)?", text.replace("_", "")):
            number, suffix = match.group(1), (match.group(2) or "").strip()
            kind = {"%": self.percent, "": None}.get(suffix, self.ratio)
            if kind is None:
                kind = self.decimal if re.search(r"[.e]", number) else self.whole
            kind.add(_value(number))
        for part, whole in re.findall(rf"(?<![\w.])({NUMBER}) of ({NUMBER})(?![\w.]*\d)", text):
            if _value(whole):
                self.percent.add(100 * _value(part) / _value(whole))  # "605 of 1000" shows "60 %"

    def candidates(self, stated: Stated) -> set[tuple[float, float]]:
        """(number, scale) pairs that could show ``stated``: the number times the scale is compared."""
        everything = self.percent | self.ratio | self.decimal | self.whole
        if stated.magnitude:
            return {(abs(math.log10(abs(n))), 1.0) for n in everything if n} | {(n, 1.0) for n in everything}
        if stated.scales == SCALES["%"]:
            return {(n, 1.0) for n in self.percent} | {(n, 100.0) for n in self.decimal if abs(n) <= 1}
        if stated.ratio:
            return {(n, 1.0) for n in self.ratio | self.decimal}
        return {(n, scale) for n in everything for scale in stated.scales}


def printed_in(*texts: str) -> Printed:
    printed = Printed()
    for text in texts:
        printed.add(text)
    return printed


def written_numbers(source: str) -> tuple[set[float], set[float]]:
    """The numbers a snippet's code is written with (not its comments): those its asserts hold,
    directly or through a module-level name (``BOUND = 1.3`` ... ``assert ratio >= BOUND``), and
    all of them, the inputs it sets (``torch.randn(4096, 4096)``) included."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set(), set()
    constants: dict[str, set[float]] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    constants[target.id] = _literals(node.value)
    asserted: set[float] = set()
    for node in ast.walk(tree):
        checks = isinstance(node, ast.Assert) or (
            isinstance(node, ast.Call) and "assert" in ast.unparse(node.func).lower()
        )
        if checks:
            asserted |= _literals(node)
            for name in ast.walk(node):
                if isinstance(name, ast.Name):
                    asserted |= constants.get(name.id, set())
    return asserted, _literals(tree)


def _literals(node: ast.AST) -> set[float]:
    return {
        float(part.value)
        for part in ast.walk(node)
        if isinstance(part, ast.Constant) and isinstance(part.value, int | float) and not isinstance(
            part.value, bool
        )
    }


def _decimals(text: str) -> int:
    mantissa = text.rstrip("%").split("e")[0]
    return len(mantissa.split(".")[1]) if "." in mantissa else 0


def shown(stated: Stated, printed: Printed, asserted: set[float], written: set[float]) -> bool:
    """Whether ``stated`` is printed on its page (to the precision the prose gives it, written as
    the same kind of figure), a bound an assert holds, or, unless it is a ratio, an input a snippet
    sets."""
    bounds = asserted if stated.ratio and not stated.factor else asserted | written
    exact = {(n, scale) for n in bounds for scale in stated.scales}
    if stated.magnitude:
        exact |= {(abs(math.log10(abs(n))), 1.0) for n in asserted if n}
    shown_as = printed.candidates(stated)
    if "e" in stated.text:
        return any(math.isclose(n * scale, stated.value, rel_tol=0.05) for n, scale in shown_as | exact)
    half = 0.5 * 10 ** -_decimals(stated.text) * (1 + 1e-9)
    return any(abs(n * scale - stated.value) <= half for n, scale in shown_as) or any(
        math.isclose(n * scale, stated.value, rel_tol=1e-9) for n, scale in exact
    )


def _pages() -> dict[str, str]:
    return {
        path.relative_to(DOCS).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(DOCS.rglob("*.md"))
        if directives(path.read_text(encoding="utf-8").splitlines(), "snippets")
    }


def test_a_measured_number_is_found_in_prose():
    page = "Both agree on 14 of 15 picks, 1.3 times faster, 61% of the time, 40 to 100 times, 3e-3 lr."
    texts = [s.text for s in stated_numbers("p.md", page)]
    assert texts == ["14", "1.3", "61%", "40", "100", "3e-3"]


def test_a_factor_without_a_unit_is_a_measured_ratio():
    page = (
        "Enough to divide the stable learning rate by 60. It grows by a factor of 4, a 3-fold rise. "
        "Divide it by more than 40. Step 2 of the loop, batch size 64."
    )
    found = stated_numbers("p.md", page)
    assert [(s.text, s.ratio) for s in found] == [("60", True), ("4", True), ("3", True), ("40", True)]
    sixty = found[0]
    assert not shown(sixty, printed_in("stable lr limit: 0.687, then 0.0114"), set(), set())
    assert not shown(sixty, printed_in("batch of 60 samples"), set(), set())  # a count, not a ratio
    assert shown(sixty, printed_in("divided by 60.2x"), set(), set())
    assert shown(found[3], Printed(), *written_numbers("assert lr_limit < limit / 40"))
    (setting,) = stated_numbers("p.md", "A prefetch factor of 8 removes the stalls; divide it by 1.")
    assert shown(setting, Printed(), *written_numbers("DataLoader(data, prefetch_factor=8)"))


def test_code_versions_dates_and_quotes_are_not_prose_figures():
    page = "\n".join(
        [
            "*Asked as:* \"why 2.5 times?\"",
            "",
            "In torch 2.13 on Day 6 (2026-11-25), Q4, `x * 1.5` and $0.99^{60}$.",
            "```python",
            "y = 3.5",
            "```",
            "### Practice: a drill { #drill-x }",
            "within 1e-6",
            "## Next { #next }",
            "It ran 2.5 times faster.",
        ]
    )
    assert [(s.line, s.text) for s in stated_numbers("p.md", page)] == [(10, "2.5")]


def test_a_number_is_shown_if_printed_to_its_precision_or_written():
    (stated,) = stated_numbers("p.md", "It is 1.3 times faster.")
    assert shown(stated, printed_in("ratio 1.31x"), set(), set())
    assert not shown(stated, printed_in("ratio 1.36x"), set(), set())
    assert shown(stated, Printed(), *written_numbers("assert ratio >= 1.3"))
    assert shown(stated, Printed(), *written_numbers("BOUND = 1.3\nassert ratio >= BOUND, ratio"))
    assert not shown(stated, Printed(), *written_numbers("x = torch.full((3,), 1.3)  # an input"))
    (percent,) = stated_numbers("p.md", "It agrees 61% of the time.")
    assert shown(percent, printed_in("agreement 0.612"), set(), set())
    assert shown(percent, printed_in("agreement 61 %"), set(), set())
    assert not shown(percent, printed_in("61 samples"), set(), set())
    (twice,) = stated_numbers("p.md", "It takes 2 times as long.")
    assert not shown(twice, printed_in("torch.tensor([1, 2])"), set(), set())
    assert shown(twice, printed_in("epoch takes 2.0x as long"), set(), set())
    (orders,) = stated_numbers("p.md", "it shrinks by 25 orders of magnitude")
    assert shown(orders, printed_in("ratio 1.6e-25"), set(), set())
    assert not shown(orders, printed_in("ratio 1.6e-20"), set(), set())
    (slow,) = stated_numbers("p.md", "every 7th read takes 150 ms")
    assert shown(slow, Printed(), *written_numbers("time.sleep(0.150)"))


def lab_markdown(source: str) -> str:
    """A lab's Markdown cells (``# %% [markdown]``, each line a comment), every other line left
    empty so that a line number is the snippet's."""
    lines, markdown = [], False
    for line in source.splitlines():
        if line.startswith("# %%"):
            markdown = "[markdown]" in line
            lines.append("")
        else:
            lines.append(re.sub(r"^# ?", "", line) if markdown else "")
    return "\n".join(lines)


def _shown_by(uses: list[Use]) -> tuple[Printed, set[float], set[float]]:
    """What ``uses`` print (a CUDA snippet's GPU recording where it skipped), and the numbers their
    asserts hold and their code is written with."""
    printed = Printed()
    asserted: set[float] = set()
    written: set[float] = set()
    for use in uses:
        result = use.recording.result if use.recording is not None else use.result
        printed.add(result.output)
        printed.add(" ".join(figure.title for figure in result.figures))
        if result.exception is not None:
            printed.add(result.exception.message)
        bounds, inputs = written_numbers(use.source)
        asserted |= bounds
        written |= inputs
    return printed, asserted, written


def test_a_lab_s_prose_is_its_markdown_cells():
    source = "# %% [markdown]\n# It is 1.3 times faster.\n\n# %%\nx = 2.5  # 4.5 times\n"
    assert [(s.line, s.text) for s in stated_numbers("lab.py", lab_markdown(source))] == [(2, "1.3")]


@pytest.mark.site_build  # it runs every page's snippets (from the cache the snippet tests filled)
def test_every_measured_number_in_the_prose_is_shown_on_its_page():
    settings = config.from_environment(ROOT)
    engine = Engine(ROOT, settings)
    try:
        build = SiteBuild.of_engine(engine, engine_results(engine, progress=False), "docs")
        site = build.plan(_pages(), labs=lab_snippets(ROOT, settings))
    finally:
        engine.close()
    read = [(f"docs/{uri}", site.markdown[uri], plan.uses) for uri, plan in site.pages.items()]
    read += [(lab.path, lab_markdown(lab.source), [lab]) for lab in site.labs.values()]
    assert len(read) > len(site.labs) >= 1, "no page or no lab read: the selection above finds none"
    unshown, used = [], set()
    for page, markdown, uses in read:
        printed, asserted, written = _shown_by(uses)
        for stated in stated_numbers(page, markdown):
            if (page, stated.text) in NOT_MEASURED:
                used.add((page, stated.text))
            elif not shown(stated, printed, asserted, written):
                unshown.append(stated.where())
    assert not unshown, (
        "numbers in the prose that no snippet on the page prints or asserts: print the figure, state the "
        "range the snippet asserts, or list it in NOT_MEASURED with its source:\n" + "\n".join(unshown)
    )
    assert not set(NOT_MEASURED) - used, f"listed but no longer stated: {sorted(set(NOT_MEASURED) - used)}"
