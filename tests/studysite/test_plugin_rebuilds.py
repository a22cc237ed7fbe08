"""Under ``mkdocs serve`` one study plugin lives through every rebuild and makes again only what
changed; what it made must still be all there after MkDocs empties the site folder."""

from __future__ import annotations

import shutil
from types import SimpleNamespace

from studysite.folded_code import FOLDS_DIR
from studysite.plugin import StudySitePlugin

PROOF = (
    '<details class="docexec-proof">\n<summary>The whole proof (1 line)</summary>\n'
    '<div class="highlight"><pre><code>x = {}\n</code></pre></div>\n</details>'
)


def _page(url: str) -> SimpleNamespace:
    return SimpleNamespace(url=url, file=SimpleNamespace(src_uri=url.rstrip("/") + ".md"))


def test_a_rebuild_writes_the_folded_code_again_into_the_emptied_site_folder(tmp_path):
    plugin = StudySitePlugin()
    config = SimpleNamespace(docs_dir=str(tmp_path / "docs"), site_dir=str(tmp_path / "site"))
    first = plugin.on_post_page(f"<main>{PROOF.format(1)}</main>", page=_page("a/"), config=config)
    shutil.rmtree(tmp_path / "site")  # as `mkdocs serve` does before each build
    again = plugin.on_post_page(f"<main>{PROOF.format(1)}</main>", page=_page("a/"), config=config)
    assert again == first and "x = 1" not in again
    (fold,) = (tmp_path / "site" / FOLDS_DIR).iterdir()
    assert "x = 1" in fold.read_text() and fold.name in again


def test_a_changed_page_is_made_again(tmp_path):
    plugin = StudySitePlugin()
    config = SimpleNamespace(docs_dir=str(tmp_path / "docs"), site_dir=str(tmp_path / "site"))
    first = plugin.on_post_page(f"<main>{PROOF.format(1)}</main>", page=_page("a/"), config=config)
    second = plugin.on_post_page(f"<main>{PROOF.format(2)}</main>", page=_page("a/"), config=config)
    assert second != first
    texts = sorted(path.read_text() for path in (tmp_path / "site" / FOLDS_DIR).iterdir())
    assert any("x = 2" in text for text in texts)
    content = plugin.on_page_content("<p>one</p>", page=_page("a/"), config=config, files=None)
    assert plugin.on_page_content("<p>two</p>", page=_page("a/"), config=config, files=None) != content
