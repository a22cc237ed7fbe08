"""Every page notebook and lab has an "Open in Colab" link, and the publish workflow publishes
every notebook such a link opens: .github/publish-notebooks.sh, run here as the workflow runs it
(on the built site, pushing to a repository of the test's own), tags exactly what the links name."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from urllib.parse import unquote

import nbformat
import pytest
import yaml

from docexec.render.publication import COLAB, FOLDER, TAG_PREFIX, source_commit

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ".github/publish-notebooks.sh"
WORKFLOW = ROOT / ".github" / "workflows" / "publish.yml"
HEAD = source_commit(ROOT)
needs_a_checkout = pytest.mark.skipif(HEAD is None, reason="the project is not a git checkout here")


def _repository() -> str:
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    settings = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=Loader)  # noqa: S506 - SafeLoader subclass
    return settings.get("repo_url") or settings["extra"]["repository"]


def _git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


@pytest.fixture
def checkout(tmp_path):
    """A checkout of the commit built, as the workflow's, and an empty repository to push to."""
    clone, remote = tmp_path / "checkout", tmp_path / "remote.git"
    _git("clone", "--quiet", "--shared", "--no-checkout", str(ROOT), str(clone), cwd=tmp_path)
    _git("checkout", "--quiet", "--detach", HEAD, cwd=clone)
    _git("init", "--quiet", "--bare", str(remote), cwd=tmp_path)
    return clone, remote


def _publish(clone: Path, notebooks: Path, remote: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [ROOT / SCRIPT, str(notebooks), str(remote)], cwd=clone, capture_output=True, text=True, check=False
    )


def _published(remote: Path) -> list[str]:
    tag = f"{TAG_PREFIX}{HEAD}"
    return _git("ls-tree", "-r", "--name-only", tag, "--", FOLDER, cwd=remote).split()


@needs_a_checkout
def test_the_script_tags_the_built_commit_with_every_notebook_at_its_site_path_once(checkout, tmp_path):
    clone, remote = checkout
    site = tmp_path / "site"
    for path in ("page/page.ipynb", "labs/lab/lab.ipynb", "page/index.html", "search/search_index.json"):
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_text("{}")
    run = _publish(clone, site, remote)
    assert run.returncode == 0, run.stdout + run.stderr
    assert _published(remote) == ["notebooks/labs/lab/lab.ipynb", "notebooks/page/page.ipynb"]
    tag = f"{TAG_PREFIX}{HEAD}"
    assert _git("rev-parse", f"{tag}^", cwd=remote).strip() == HEAD  # it keeps the commit installed
    assert _git("diff", "--name-only", HEAD, tag, cwd=remote).split() == _published(remote)
    tagged = _git("rev-parse", tag, cwd=remote)
    (site / "page" / "page.ipynb").write_text('{"changed": true}')
    again = _publish(clone, site, remote)
    assert again.returncode == 0 and "published already" in again.stdout, again.stdout + again.stderr
    assert _git("rev-parse", tag, cwd=remote) == tagged  # a published tag never moves


@needs_a_checkout
def test_the_script_refuses_a_site_without_notebooks(checkout, tmp_path):
    clone, remote = checkout
    (tmp_path / "empty").mkdir()
    run = _publish(clone, tmp_path / "empty", remote)
    assert run.returncode == 1 and "no notebook under" in run.stderr
    assert _git("tag", cwd=remote) == ""


def test_the_workflow_tags_the_notebooks_of_the_deployed_build_before_it_deploys():
    jobs = yaml.safe_load(WORKFLOW.read_text())["jobs"]
    built = jobs["main"]["steps"]
    build_at = next(i for i, step in enumerate(built) if step.get("run") == "make build")
    upload = next(step for step in built[build_at:] if step.get("with", {}).get("name") == "notebooks")
    assert upload["uses"].startswith("actions/upload-artifact@")
    assert upload["with"]["path"].split()[0] == "site/**/*.ipynb"  # at their paths in the site
    assert upload["with"]["if-no-files-found"] == "error"
    publish = jobs["notebooks"]
    assert publish["needs"] == "main" and publish["permissions"] == {"contents": "write"}
    download = next(step for step in publish["steps"] if step.get("uses", "").startswith("actions/download-"))
    assert download["with"] == {"name": "notebooks", "path": "${{ runner.temp }}/notebooks"}
    runs = "\n".join(step.get("run", "") for step in publish["steps"])
    assert re.search(rf'^\s*{re.escape(SCRIPT)} "\$RUNNER_TEMP/notebooks" ', runs, re.MULTILINE), runs
    assert "notebooks" in jobs["deploy"]["needs"]  # no page links a tag before it exists
    contents = {name: (job.get("permissions") or {}).get("contents") for name, job in jobs.items()}
    assert [name for name, access in contents.items() if access == "write"] == ["notebooks"]


_PAGE_LINE = re.compile(r'<p class="docexec-page-line">(.*?)</p>', re.S)
_LINK = re.compile(r'<a class="(docexec-download|docexec-colab)" href="([^"]+)"')


def _page_links(site: Path) -> dict[str, dict[str, str]]:
    """Each built page with a notebook: its download and Colab links."""
    found = {}
    for page in sorted(site.rglob("*.html")):
        line = _PAGE_LINE.search(page.read_text(encoding="utf-8"))
        links = dict(_LINK.findall(line.group(1))) if line else {}
        if links:
            found[page.relative_to(site).as_posix()] = links
    return found


@needs_a_checkout
def test_every_notebook_page_has_a_colab_link_to_the_notebook_the_workflow_publishes(built_site, checkout):
    site = Path(built_site.path)
    pages = _page_links(site)
    assert "labs/broadcasting/index.html" in pages and "how-this-site-works/index.html" in pages
    repository = re.fullmatch(r"https://github\.com/([\w.-]+/[\w.-]+?)(?:\.git)?/?", _repository())
    assert repository, _repository()
    colab = re.compile(
        rf"{re.escape(COLAB)}/{re.escape(repository.group(1))}/blob/{TAG_PREFIX}{HEAD}/{FOLDER}/(\S+\.ipynb)"
    )
    linked = []
    for page, links in pages.items():
        assert set(links) == {"docexec-download", "docexec-colab"}, page
        opened = colab.fullmatch(links["docexec-colab"])
        assert opened, f"{page}: {links['docexec-colab']}"
        path = unquote(opened.group(1))
        assert path == str(Path(page).parent / unquote(links["docexec-download"])), page  # the one downloaded
        notebook = nbformat.read(site / path, as_version=4)
        install = next(cell.source for cell in notebook.cells if cell.cell_type == "code")
        assert "%pip install" in install, path
        # from the commit built, not a branch (the engine from its folder there)
        for project in re.findall(r"@ git\+(\S+?)(?:#subdirectory=\S+)?'", install):
            assert project == f"{_repository()}@{HEAD}", f"{path}: {install}"
        linked.append(f"{FOLDER}/{path}")
    clone, remote = checkout
    run = _publish(clone, site, remote)
    assert run.returncode == 0, run.stdout + run.stderr
    assert set(linked) <= set(_published(remote))
    assert len(linked) == len(set(linked)) and len(set(linked)) >= 20
