#!/usr/bin/env python3
"""Regenerate the results tables in README.md and docs/*.md from the JSON files under
docs/results/.

Each table sits between ``<!-- results:NAME:start -->`` and ``<!-- results:NAME:end -->``,
where docs/results/NAME.json is the benchmark output it is made from.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from warpgemm.bench import report  # noqa: E402


def update(doc: Path) -> None:
    text = doc.read_text()
    for name in re.findall(r"<!-- results:([\w.-]+):start -->", text):
        path = ROOT / "docs" / "results" / f"{name}.json"
        if not path.exists():
            print(f"{doc.name}: missing {path.relative_to(ROOT)}; table left as it is", file=sys.stderr)
            continue
        (result,) = report.load([path])
        text = report.replace_between(text, f"results:{name}", report.markdown_table(result))
        print(f"{doc.relative_to(ROOT)}: table {name} regenerated from {path.relative_to(ROOT)}")
    doc.write_text(text)


def main() -> int:
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        update(doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
