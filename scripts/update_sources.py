"""Refresh the benchmarks' pinned sources from an offline mirror's MANIFEST.json.

Every benchmark declares its own data files (`BenchmarkSpec.sources`, a ``sources.json`` in its
package). This script updates the url, commit, upstream path, sha256, bytes and licence of each
declared file that the mirror's manifest lists under the same key, keeping each file's
citation; it names no benchmark. Run it when the mirror's pinned upstream commits change:

    python scripts/update_sources.py ../shared/datasets/MANIFEST.json

To pin a new file, use `biasaudit data pin URL... --prefix NAME/ -o <package>/sources.json`.
"""

from __future__ import annotations

import json
import sys
from importlib.resources import files
from pathlib import Path

from biasaudit import plugin


def url_for(entry: dict[str, str]) -> str | None:
    source = entry["source"]
    if not source.startswith("github.com/") or not entry["commit"]:
        return None
    repo = source.removeprefix("github.com/")
    path = entry["source_path"].replace(" ", "%20")  # BBQ's "templates/new_templates - Age.csv"
    return f"https://raw.githubusercontent.com/{repo}/{entry['commit']}/{path}"


def refreshed(declared: dict[str, dict[str, object]], manifest: dict[str, dict[str, str]]) -> int:
    """Update `declared` in place from `manifest`; the number of entries found there."""
    found = 0
    for key, entry in declared.items():
        upstream = manifest.get(key)
        if upstream is None:
            continue
        found += 1
        entry.update(
            url=url_for(upstream),
            upstream=upstream["source"],
            commit=upstream["commit"],
            upstream_path=upstream["source_path"],
            sha256=upstream["sha256"],
            bytes=upstream["bytes"],
            license=upstream["license"],
        )
    return found


def main(manifest_path: str) -> None:
    manifest = {e["file"]: e for e in json.loads(Path(manifest_path).read_text())}
    for name, spec in plugin.discover().items():
        if not spec.sources:
            continue
        package, _, resource = spec.sources.partition(":")
        path = Path(str(files(package).joinpath(resource)))
        declared = json.loads(path.read_text(encoding="utf-8"))
        found = refreshed(declared, manifest)
        path.write_text(json.dumps(declared, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
        missing = len(declared) - found
        note = f"; {missing} not in the manifest, left as they were" if missing else ""
        print(f"{name}: {found} pinned sources refreshed in {path}{note}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared/datasets/MANIFEST.json")
