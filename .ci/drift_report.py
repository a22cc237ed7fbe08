"""Markdown for a run's summary: which snippets broke, were mended or print otherwise on the newest
torch than on the pinned one. Usage: python .ci/drift_report.py PINNED.json NEWEST.json
(each written by `docexec run --report`)."""

from __future__ import annotations

import json
import sys


def report(pinned: dict, newest: dict) -> str:
    torch = {entry.get("torch") for entry in newest.values()} - {None}
    lines = [f"## Snippets on torch {', '.join(sorted(torch)) or '?'} against the pinned torch", ""]
    broke = [
        p
        for p in sorted(newest)
        if newest[p]["status"] == "failed" and pinned.get(p, {}).get("status") != "failed"
    ]
    mended = [
        p
        for p in sorted(newest)
        if newest[p]["status"] != "failed" and pinned.get(p, {}).get("status") == "failed"
    ]
    changed = [
        p
        for p in sorted(newest)
        if p in pinned
        and newest[p]["status"] == pinned[p]["status"] == "passed"
        and newest[p]["output"] != pinned[p]["output"]
    ]
    lines.append(
        f"{len(broke)} broke, {len(mended)} mended, {len(changed)} print something else "
        f"(timings included), {len(newest)} run."
    )
    for title, paths in (("Broke", broke), ("Mended", mended), ("Output changed", changed)):
        if paths:
            lines += ["", f"### {title}", ""]
            for path in paths:
                failure = (newest[path].get("failure") or "").splitlines()
                reason = newest[path].get("reason")  # timed-out, raised, out-of-memory, ...
                why = f" ({reason})" if title == "Broke" and reason else ""
                lines.append(f"- `{path}`{why}" + (f": {failure[0]}" if title == "Broke" and failure else ""))
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as a, open(sys.argv[2], encoding="utf-8") as b:
        sys.stdout.write(report(json.load(a), json.load(b)))
