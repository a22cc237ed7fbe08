"""The contributor's loop on a copy of the project: the commands docs/contributing.md gives (a new
page from the scaffold, its snippet, `make quick`, the strict build), the pre-commit hooks, and the
preview under the project's own mkdocs.yml, which shows a broken snippet and keeps serving.

`make quick` runs once: the guide's loop runs it with a commit's change staged beside the new page
(a line added to the home page and to a snippet), which is what the pre-commit hook `content` runs
it on; the hooks test runs the other hooks."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from docexec.directives import directive_lines
from docexec.execution.declarations import parse_file

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.site_build  # each builds the whole site: not part of `make quick`

ANYWHERE = shutil.ignore_patterns(
    ".git", ".pytest_cache", ".ruff_cache", "__pycache__", "*.egg-info", "node_modules"
)


def not_copied(folder: str, names: list[str]) -> set[str]:
    """What a clone does not hold: caches, and at the top the environment and the built site."""
    top = {".venv", "site"} if Path(folder) == ROOT else set()
    return set(ANYWHERE(folder, names)) | (top & set(names))


def _environment() -> dict[str, str]:
    """The copy's own cache, and no trace of the pytest run around it."""
    dropped = {"DOCEXEC_CACHE_DIR", "DOCEXEC_FORCE", "DRILL_NOTEBOOKS", "PYTEST_ADDOPTS"}
    dropped.add("PYTEST_CURRENT_TEST")
    return {k: v for k, v in os.environ.items() if k not in dropped} | {"NO_MKDOCS_2_WARNING": "1"}


def _git(copy: Path, *args: str) -> str:
    identity = ["-c", "user.name=Contributor", "-c", "user.email=contributor@example.org"]
    return subprocess.run(
        ["git", *identity, *args], cwd=copy, check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture(scope="module")
def copy(root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A clone as a contributor has it: a git checkout, set up (.venv), with the results cached."""
    target = tmp_path_factory.mktemp("contributor") / "project"
    shutil.copytree(root, target, ignore=not_copied, symlinks=True)
    (target / ".venv").mkdir()
    (target / ".venv" / "bin").symlink_to(root / ".venv" / "bin")
    (target / ".venv" / ".installed").touch()  # newer than pyproject.toml: `make` installs nothing
    _git(target, "init", "-q")
    _git(target, "add", "-A")
    _git(target, "commit", "-q", "-m", "the project as cloned")
    return target


def _run(copy: Path, command: str, timeout: float = 900) -> subprocess.CompletedProcess:
    done = subprocess.run(
        command, shell=True, cwd=copy, env=_environment(), capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, f"`{command}` failed:\n{(done.stdout + done.stderr)[-6000:]}"
    return done


def guide_loop(root: Path) -> list[str]:
    """The commands of the first bash block under "The loop" in docs/contributing.md."""
    guide = (root / "docs" / "contributing.md").read_text(encoding="utf-8")
    section = guide.split("### The loop", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.S)
    assert block, "docs/contributing.md: no bash block under 'The loop'"
    return [line for line in block[1].splitlines() if line.strip()]


@pytest.fixture(scope="module")
def staged(copy: Path) -> Iterator[list[str]]:
    """A commit's change, staged: a line added to the home page and to a plain snippet."""
    files = ["docs/index.md", _plain_snippet(copy)]
    for path in files:
        (copy / path).write_text((copy / path).read_text() + "\n")
    _git(copy, "add", *files)
    yield files
    _git(copy, "reset", "-q", "HEAD", "--", *files)
    _git(copy, "checkout", "-q", "HEAD", "--", *files)


@pytest.fixture(scope="module")
def guide_run(root: Path, copy: Path, staged: list[str]) -> dict[str, str]:
    """The guide's loop run on the copy, each command's output by command; `make quick` is also
    listed dry (`make -n`) just before it runs, to show what it was given."""
    outputs = {}
    for command in guide_loop(root):
        if command == "make quick":
            outputs["make -n quick"] = _run(copy, "make -n quick").stdout
        outputs[command] = (done := _run(copy, command)).stdout + done.stderr
    return outputs


def test_the_guides_loop_creates_a_page_that_passes_the_checks_and_the_strict_build(root, copy, guide_run):
    commands = guide_loop(root)
    assert commands[0].startswith("make page ") and "make quick" in commands and "make build" in commands
    assert set(commands) <= set(guide_run)
    page = re.search(r"PAGE=(\S+)", commands[0])[1]
    html = (copy / "site" / page / "index.html").read_text(encoding="utf-8")
    assert "same memory: True" in html  # the template snippet's output, executed by the build
    assert re.search(rf'<a href="https://[^"]+/docs/{page}\.md"[^>]*rel="edit"', html)
    snippets = list((copy / "snippets" / page).glob("*.py"))
    assert len(snippets) == 1 and snippets[0].name in (copy / "docs" / f"{page}.md").read_text()


def test_make_quick_checks_the_new_snippet_and_the_changed_one_and_runs_no_drill_kernel(
    copy, guide_run, staged
):
    """The one `make quick` of the run: both snippets given to it, the drill notebooks' kernel left
    out as no drill changed (every drill runs in it where one did: the next test)."""
    dry = guide_run["make -n quick"]
    new_snippet = next(
        path
        for path in _git(copy, "ls-files", "--others", "--exclude-standard").split()
        if path.endswith(".py")
    )
    assert new_snippet in dry and staged[1] in dry, dry
    assert "DRILL_NOTEBOOKS=none" in dry, dry
    assert "docexec: 1 executed" in guide_run["make quick"], guide_run["make quick"][-3000:]


def test_make_quick_runs_every_drill_in_the_notebook_kernel_where_a_drill_changed(copy):
    stub = next((copy / "snippets").rglob("drills/*_stub.py"))
    original = stub.read_text(encoding="utf-8")
    stub.write_text(original + "\n", encoding="utf-8")
    try:
        dry = _run(copy, "make -n quick").stdout
    finally:
        stub.write_text(original, encoding="utf-8")
    assert "DRILL_NOTEBOOKS=all" in dry, dry


def _hooks(copy: Path, stage: str) -> list[dict]:
    config = yaml.safe_load((copy / ".pre-commit-config.yaml").read_text())
    default = config.get("default_stages", ["pre-commit"])
    hooks = [hook for repo in config["repos"] for hook in repo["hooks"]]
    return [hook for hook in hooks if stage in hook.get("stages", default)]


def test_the_pre_commit_hooks_run_on_a_commits_files(copy, staged, guide_run):
    """With pre-commit where it is installed; else each hook as pre-commit calls it. A hook that runs
    `make quick` is not run again: the guide's loop ran it on these staged files."""
    files = staged
    ran = []
    already = {"make quick"} & set(guide_run)
    if shutil.which("pre-commit"):
        skipped = [hook["id"] for hook in _hooks(copy, "pre-commit") if hook["entry"] in already]
        _run(copy, f"SKIP={','.join(skipped)} pre-commit run --files " + " ".join(files))
        ran = [hook["id"] for hook in _hooks(copy, "pre-commit")]
    else:
        for hook in _hooks(copy, "pre-commit"):
            assert hook.get("language") == "system", f"{hook['id']}: a hook that downloads nothing"
            chosen = [
                path
                for path in files
                if re.search(hook.get("files", ""), path)
                and (hook.get("types") != ["python"] or path.endswith(".py"))
            ]
            if not chosen:
                continue
            ran.append(hook["id"])
            if hook["entry"] in already:
                continue
            arguments = chosen if hook.get("pass_filenames", True) else []
            _run(copy, " ".join([hook["entry"], *map(shlex.quote, arguments)]))
    assert {"ruff", "content"} <= set(ran), ran
    assert (
        next(hook for hook in _hooks(copy, "pre-commit") if hook["id"] == "content")["entry"] == "make quick"
    )
    for hook in _hooks(copy, "pre-push"):  # slow: only that they call what exists
        program = hook["entry"].split()[0]
        assert program == "make" or (copy / program).exists(), f"{hook['id']}: {program} is missing"


def _plain_snippet(copy: Path) -> str:
    """The first snippet of the proving-ground page that runs here and raises nothing."""
    page = (copy / "docs" / "how-this-site-works.md").read_text(encoding="utf-8").splitlines()
    for _, _, path in directive_lines(page):
        declared = parse_file(copy / path, copy)
        if not declared.cuda and not declared.raises:
            return path
    raise AssertionError("docs/how-this-site-works.md runs no plain snippet")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _fetch_until(url: str, wanted: str, seconds: float) -> str:
    deadline, page = time.monotonic() + seconds, ""
    while time.monotonic() < deadline:
        try:
            page = urllib.request.urlopen(url, timeout=30).read().decode()
            if wanted in page:
                return page
        except OSError:
            pass
        time.sleep(0.5)
    raise AssertionError(f"{wanted!r} did not appear at {url}; last page:\n{page[-3000:]}")


def test_the_preview_with_the_projects_config_shows_a_broken_snippet_and_keeps_serving(copy):
    snippet = copy / _plain_snippet(copy)
    original = snippet.read_text(encoding="utf-8")
    port = _free_port()
    command = [sys.executable, "-m", "mkdocs", "serve", "--dev-addr", f"127.0.0.1:{port}"]
    server = subprocess.Popen(
        command, cwd=copy, env=_environment(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    url = f"http://127.0.0.1:{port}/how-this-site-works/"
    try:
        working = _fetch_until(url, "How this site works", 900)
        assert "This snippet failed" not in working
        snippet.write_text(original + "\nraise ValueError('broken ' + 'on purpose')\n", encoding="utf-8")
        broken = _fetch_until(url, "ValueError: broken on purpose", 600)
        assert "This snippet failed" in broken
        home = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=60).read().decode()
        assert "PyTorch Foundations" in home  # the rest of the site is still served
        snippet.write_text(original + "\nprint('fixed', 6 * 7)\n", encoding="utf-8")
        fixed = _fetch_until(url, "fixed 42", 600)  # an output: the source says 6 * 7
        assert "This snippet failed" not in fixed
        assert server.poll() is None
    finally:
        snippet.write_text(original, encoding="utf-8")
        server.send_signal(signal.SIGINT)
        try:
            log = server.communicate(timeout=120)[0]
        except subprocess.TimeoutExpired:
            server.kill()
            log = server.communicate()[0]
    name = snippet.relative_to(copy).as_posix()
    assert f"snippet failed: {name}:" in log and "ValueError: broken on purpose" in log
    assert "Aborted" not in log and "appear stuck" not in log
