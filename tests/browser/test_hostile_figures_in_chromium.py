"""A figure that would run script when a reader opens it at full size never reaches the site.

Each hostile SVG below runs its script in Chromium when opened on its own, as the full-size view
opens a figure (checked first, so that the test proves something); the engine refuses each when it
reads a result (a forged cache entry, a recording, a snippet's own events file), so the site never
serves one. A figure matplotlib drew still passes, and opens at full size without a script.
"""

from __future__ import annotations

import base64
import functools
import http.server
import threading

import pytest

from docexec.execution.result import Result, Status
from docexec.render.figure_files import smaller_svg
from docexec.sandbox.child import _encode

pytestmark = pytest.mark.browser

OPEN = (
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
    'width="200" height="200">'
)
HOSTILE = {
    # The URL a browser reads is javascript:, whatever the bytes spell.
    "javascript link behind character references": OPEN
    + '<a xlink:href="&#106;ava&#x73;cript&#58;alert(1)"><rect width="200" height="200"/></a></svg>',
    "javascript link with a tab inside": OPEN
    + '<a href="java&#9;script:alert(1)"><rect width="200" height="200"/></a></svg>',
    "script element": OPEN + "<script>alert(1)</script></svg>",
    "event handler": OPEN + '<rect width="200" height="200" onclick="alert(1)"/></svg>',
    "foreignObject": OPEN
    + '<foreignObject width="200" height="200"><img xmlns="http://www.w3.org/1999/xhtml" '
    'src="missing.png" onerror="alert(1)"/></foreignObject></svg>',
    "XHTML script without foreignObject": OPEN
    + '<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script></svg>',
}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """``served(name, svg)``: the URL of ``svg`` saved as a file of a site on 127.0.0.1."""
    folder = tmp_path_factory.mktemp("figures")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))

    class Quiet(handler.func):  # type: ignore[name-defined]
        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, **handler.keywords))
    threading.Thread(target=server.serve_forever, daemon=True).start()

    def serve(name: str, svg: bytes) -> str:
        (folder / name).write_bytes(svg)
        return f"http://127.0.0.1:{server.server_address[1]}/{name}"

    yield serve
    server.shutdown()


def script_ran_at_full_size(browser, url: str) -> bool:
    """Opens ``url`` as the full-size view does (a document of its own), clicks its middle."""
    context = browser.new_context(viewport={"width": 400, "height": 400})
    page = context.new_page()
    alerts: list[str] = []
    page.on("dialog", lambda dialog: (alerts.append(dialog.message), dialog.dismiss()))
    page.goto(url)
    page.wait_for_load_state("load")
    page.mouse.click(100, 100)
    page.wait_for_timeout(300)  # a javascript: URL runs after the click's navigation starts
    context.close()
    return bool(alerts)


def published(svg: bytes) -> bytes | None:
    """What the site would serve of a result holding ``svg``, read back as from a cache entry;
    None when the engine refuses it."""
    data = base64.b64encode(svg).decode()
    figure = {"kind": "figure", "format": "svg", "data": data, "width": 200, "height": 200}
    cells = [{"line": 1, "outputs": [figure]}]
    entry = {"path": "snippets/figure.py", "status": Status.PASSED.value, "cells": cells}
    try:
        result = Result.from_json(entry)
    except ValueError:
        return None
    return smaller_svg(result.figures[0].bytes)


@pytest.mark.parametrize("name", HOSTILE)
def test_a_figure_that_runs_script_in_chromium_is_never_served(browser, served, name):
    svg = HOSTILE[name].encode()
    assert script_ran_at_full_size(browser, served("hostile.svg", svg)), "not hostile in Chromium"
    shown = published(svg)
    assert shown is None or not script_ran_at_full_size(browser, served("published.svg", shown))
    assert shown is None  # refused whole, not served with the script taken out


def test_a_figure_matplotlib_drew_is_served_and_runs_no_script(browser, served):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(3, 2))
    axes.plot([0, 1, 4, 9], label="squares")
    axes.imshow([[0, 1], [1, 0]], extent=(0, 3, 0, 9), alpha=0.3)
    axes.bar([1, 2], [3, 5], hatch="//")
    axes.legend()
    _, drawn, _, _ = _encode(figure)
    plt.close(figure)
    shown = published(drawn)
    assert shown is not None
    url = served("drawn.svg", shown)
    assert not script_ran_at_full_size(browser, url)
    context = browser.new_context()
    page = context.new_page()
    page.set_content(f'<img id="figure" src="{url}">')
    page.wait_for_function("document.getElementById('figure').complete")
    assert page.evaluate("document.getElementById('figure').naturalWidth") > 0
    context.close()
