"""Where a site's notebooks are published, so that Colab can open them and their first cell can
install the project as it was when they were built.

Each build is of one commit of the project's repository. The publish workflow pushes, for that
commit, a tag ``notebooks-<commit>`` on a commit of its own: the project's tree with every notebook
of the built site added under ``notebooks/``, at its path in the site (``.github/publish-notebooks.sh``).
A page's "Open in Colab" link opens the notebook from that tag, and the notebook installs the
project from the commit itself: neither moves once published (the script never replaces a tag).

Only a GitHub repository gives Colab links: Colab opens notebooks from GitHub alone.
"""

from __future__ import annotations

import dataclasses
import re
import subprocess
from pathlib import Path
from urllib.parse import quote

TAG_PREFIX = "notebooks-"
FOLDER = "notebooks"  # in the tag's tree, the built site's notebooks at their paths in the site
COLAB = "https://colab.research.google.com/github"
_GITHUB = re.compile(r"^https://github\.com/([\w.-]+)/([\w.-]+?)(?:\.git)?/?$")
_COMMIT = re.compile(r"^[0-9a-f]{40}(?:[0-9a-f]{24})?$")  # SHA-1, or SHA-256


@dataclasses.dataclass(frozen=True)
class Publication:
    """The project's repository (an https URL) and the commit a build is made from, where known."""

    repository: str | None
    commit: str | None

    def install_url(self) -> str | None:
        """What pip installs the project from: the repository at the build's commit (pip's
        ``URL@ref``), or the repository alone where no commit is known."""
        if self.repository and self.commit:
            return f"{self.repository.rstrip('/')}@{self.commit}"
        return self.repository

    def tag(self) -> str | None:
        return TAG_PREFIX + self.commit if self.commit else None

    def colab_url(self, site_path: str) -> str | None:
        """The link that opens the notebook at ``site_path`` (its path in the built site) in Colab,
        from this build's tag; None where the repository is not on GitHub or no commit is known."""
        found = _GITHUB.match(self.repository or "")
        if found is None or self.commit is None:
            return None
        owner, name = found.groups()
        return f"{COLAB}/{owner}/{name}/blob/{self.tag()}/{FOLDER}/{quote(site_path.lstrip('/'))}"


def source_commit(root: Path) -> str | None:
    """The commit checked out at ``root`` (the one a CI build is made from), or None outside a git
    checkout or without git."""
    try:
        found = subprocess.run(
            ["git", "rev-parse", "--verify", "--quiet", "HEAD^{commit}"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    commit = found.stdout.strip()
    return commit if found.returncode == 0 and _COMMIT.match(commit) else None


__all__ = ["COLAB", "FOLDER", "TAG_PREFIX", "Publication", "source_commit"]
