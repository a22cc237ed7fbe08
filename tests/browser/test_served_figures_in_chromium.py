"""A figure served as a smaller SVG (docexec/render/figure_files.py) draws the same pixels as drawn."""

from __future__ import annotations

import base64
import io

import pytest

from docexec.render.figure_files import smaller_svg
from docexec.sandbox.child import _encode

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
plt = pytest.importorskip("matplotlib.pyplot")
Image = pytest.importorskip("PIL.Image")
ImageChops = pytest.importorskip("PIL.ImageChops")


def rendered(browser, svg: bytes) -> Image.Image:
    """The SVG as an <img> on white, as a page shows a figure, at twice the pixel density."""
    context = browser.new_context(viewport={"width": 1000, "height": 600}, device_scale_factor=2)
    page = context.new_page()
    source = "data:image/svg+xml;base64," + base64.b64encode(svg).decode()
    page.set_content(f'<body style="margin:0;background:#fff"><img id="f" src="{source}"></body>')
    page.wait_for_function("document.getElementById('f').complete")
    shot = page.locator("#f").screenshot()
    context.close()
    return Image.open(io.BytesIO(shot)).convert("L")


def drawn_svg() -> bytes:
    """Text (titles, ticks, a legend), lines and a scatter, encoded as the engine does."""
    import numpy as np

    rng = np.random.default_rng(1)
    figure, (left, right) = plt.subplots(1, 2, figsize=(8, 3.5))
    for rate in (1e-3, 1e-2, 1e-1):
        left.plot(np.exp(-np.arange(100) * rate * 10), label=f"lr={rate:g}")
    left.set(title="Loss by learning rate", xlabel="step", ylabel="loss")
    left.legend()
    right.scatter(*rng.normal(size=(2, 300)), c=rng.integers(0, 10, 300), cmap="tab10", s=6)
    right.imshow(rng.random((8, 8)), extent=(-3, 3, -3, 3), alpha=0.3)
    right.set_title("300 embeddings over a heat map")
    _, data, _, _ = _encode(figure)
    plt.close(figure)
    return data


def test_a_served_figure_draws_what_was_drawn(browser):
    drawn = drawn_svg()
    before, after = rendered(browser, drawn), rendered(browser, smaller_svg(drawn))
    assert before.size == after.size
    difference = ImageChops.difference(before, after)
    changed = sum(1 for value in difference.tobytes() if value > 64)  # beyond anti-aliasing
    assert changed / (before.width * before.height) < 0.001, f"{changed} pixels differ"
