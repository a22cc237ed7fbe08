"""A figure is served as a smaller SVG of the same drawing; the figure as drawn stays in results."""

from __future__ import annotations

import base64
import re
import xml.etree.ElementTree as ET

import pytest
from scour import scour

from docexec.execution import published
from docexec.execution.result import Figure
from docexec.render.figure_files import _SCOUR_OPTIONS, _rounded_uses, figure_name, served_bytes, smaller_svg
from docexec.sandbox.child import _encode

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
plt = pytest.importorskip("matplotlib.pyplot")


def drawn_svg() -> bytes:
    """A figure like the site's: titled axes, a legend, lines and a scatter of 300 points."""
    import numpy as np

    rng = np.random.default_rng(0)
    figure, (left, right) = plt.subplots(1, 2, figsize=(8, 3.5))
    for rate in (1e-3, 1e-2, 1e-1):
        left.plot(np.exp(-np.arange(100) * rate * 10), label=f"lr={rate:g}")
    left.set(title="Loss by learning rate", xlabel="step", ylabel="loss")
    left.legend()
    points = rng.normal(size=(300, 2))
    right.scatter(points[:, 0], points[:, 1], c=rng.integers(0, 10, 300), cmap="tab10", s=6)
    right.set_title("t-SNE of 300 embeddings")
    kind, data, _, _ = _encode(figure)
    plt.close(figure)
    assert kind == "svg"
    return data


def size_of(svg: bytes) -> tuple[float, float]:
    root = ET.fromstring(svg)
    return tuple(float(root.get(name).removesuffix("pt")) for name in ("width", "height"))


def test_a_served_svg_is_much_smaller_the_same_size_and_still_inert():
    drawn = drawn_svg()
    served = smaller_svg(drawn)
    assert len(served) < 0.7 * len(drawn), (len(served), len(drawn))
    assert size_of(served) == pytest.approx(size_of(drawn), abs=0.01)
    assert published.svg_is_inert(served)
    assert b"<metadata" not in served and b"<?xml" not in served


def test_a_scatter_plots_marker_positions_keep_five_digits_like_the_rest():
    """Scour rounds a marker's position where the marker has a style of its own, not where its
    colour is its group's (a scatter plot of one colour per class): those are rounded here."""
    import numpy as np

    figure, axes = plt.subplots(figsize=(3, 3))
    axes.scatter(*np.random.default_rng(0).normal(size=(2, 300)), s=6)
    _, drawn, _, _ = _encode(figure)
    plt.close(figure)
    position = rb'<use[^>]*\s(?:x|y)="-?(\d+\.\d+)"'
    assert any(len(number) > 7 for number in re.findall(position, scour_only(drawn)))  # as Scour leaves it
    served = re.findall(position, smaller_svg(drawn))
    assert len(served) >= 300 and all(len(number.replace(b".", b"")) <= 5 for number in served)
    assert _rounded_uses('<use x="176.931961" y="-0.5" xlink:href="#a"/>') == (
        '<use x="176.93" y="-0.5" xlink:href="#a"/>'
    )


def scour_only(svg: bytes) -> bytes:
    return scour.scourString(svg.decode(), _SCOUR_OPTIONS).encode()


def test_the_same_figure_is_served_as_the_same_bytes_under_the_same_name():
    drawn = drawn_svg()
    smaller_svg.cache_clear()
    first = smaller_svg(drawn)
    smaller_svg.cache_clear()
    assert smaller_svg(drawn) == first
    figure = Figure(format="svg", data=base64.b64encode(drawn).decode(), width=1, height=1)
    assert served_bytes(figure) == first
    assert figure_name(figure).endswith(".svg") and figure_name(figure) == figure_name(figure)


def test_a_png_is_served_as_drawn():
    png = b"\x89PNG\r\n\x1a\n" + b"\0" * 32
    figure = Figure(format="png", data=base64.b64encode(png).decode(), width=1, height=1)
    assert served_bytes(figure) == png


def test_a_build_keeps_what_scour_made_and_the_next_one_reads_it(tmp_path, monkeypatch):
    drawn, store = drawn_svg(), tmp_path / "figures"
    smaller_svg.cache_clear()
    first = smaller_svg(drawn, store)
    (kept,) = store.rglob("*.svg")
    assert kept.read_bytes() == first

    def no_scour(*args):
        raise AssertionError("Scour ran again for a figure it had made smaller before")

    monkeypatch.setattr("docexec.render.figure_files.scour.scourString", no_scour)
    smaller_svg.cache_clear()  # as in the next build's process
    assert smaller_svg(drawn, store) == first


def test_a_kept_figure_that_could_run_script_is_never_served(tmp_path):
    drawn, store = drawn_svg(), tmp_path / "figures"
    smaller_svg.cache_clear()
    smaller_svg(drawn, store)
    (kept,) = store.rglob("*.svg")
    kept.write_bytes(b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
    smaller_svg.cache_clear()
    assert smaller_svg(drawn, store) == drawn  # the figure as drawn, which was checked when it ran


def test_a_store_that_cannot_be_written_only_costs_time(tmp_path):
    drawn = drawn_svg()
    (tmp_path / "figures").write_text("a file where the folder would be")
    smaller_svg.cache_clear()
    assert smaller_svg(drawn, tmp_path / "figures") == smaller_svg(drawn)
