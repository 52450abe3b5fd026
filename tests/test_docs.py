"""The documentation follows the code: the API reference is regenerated from the docstrings,
and every link between the pages (files and #anchors) resolves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import load_script

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_api_reference_is_up_to_date():
    gen = load_script("gen_api_docs")
    committed = (ROOT / "docs" / "api.md").read_text()
    assert gen.render() == committed, (
        "docs/api.md is out of date with the docstrings: run python scripts/gen_api_docs.py "
        "and commit docs/api.md")


def test_api_reference_covers_the_public_entry_points():
    text = (ROOT / "docs" / "api.md").read_text()
    for name in ("warpgemm.matmul", "warpgemm.kernels", "warpgemm.compile", "warpgemm.KernelSpec",
                 "warpgemm.CompiledKernel", "warpgemm.layout.Layout", "warpgemm.layout.make_tiled_mma"):
        assert f"### `{name}`" in text


def _anchors(markdown: str) -> set[str]:
    """GitHub's anchors for the headings of a page (outside code blocks)."""
    out, fence = set(), False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fence = not fence
        elif not fence and (m := re.match(r"^#{1,6} (.+)$", line)):
            out.add(re.sub(r"[^\w\- ]", "", m[1].strip().lower()).replace(" ", "-"))
    return out


_LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_between_pages_resolve(page):
    text = page.read_text()
    text_outside_code = re.sub(r"```.*?```", "", text, flags=re.S)
    for target in _LINK.findall(text_outside_code):
        if re.match(r"[a-z]+:", target):
            continue                                    # http(s), mailto: not checked here
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        assert linked.exists(), f"{page.name}: link to missing {target}"
        if anchor:
            assert anchor in _anchors(linked.read_text()), f"{page.name}: no heading for {target}"


def test_package_ships_its_license_and_type_marker():
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert (ROOT / "src" / "warpgemm" / "py.typed").exists()
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'license-files = ["LICENSE"]' in pyproject and '"py.typed"' in pyproject


def _h200_cell(m: int, n: int, k: int) -> str:
    """What decode.md's map of the H200 at 33-192 rows says ``dispatch.choose`` runs."""
    from warpgemm import dispatch

    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H200")
    p = rule.params
    cluster = (", c2 sharing W" if p.get("SHARE_W") else ", c2") if p.get("CLUSTER") == 2 else ""
    if rule.kernel == "decode/02_swap_ab_wgmma":
        bn = p.get("BN", 32 if m <= 32 else 64)
        return f"02: {-(-m // bn)} x {bn}, W {p['BM']}{cluster}"
    assert rule.kernel == "hopper/06_tma_store_epilogue"
    return f"06: {p.get('BM', 128)} x {p.get('BN', 128)}{cluster}"


def test_decode_pages_map_of_the_h200_at_33_to_192_rows_is_what_dispatch_chooses():
    text = (ROOT / "docs" / "decode.md").read_text()
    header = re.search(r"^\| rows \|((?: \d+ x \d+ \|)+)$", text, re.M)
    assert header, "decode.md: the table of what the H200 runs at 33-192 rows"
    weights = [tuple(int(v) for v in w.split(" x ")) for w in re.findall(r"\d+ x \d+", header.group(1))]
    rows = re.findall(r"^\| \d+-\d+ \((\d+)\) \|(.*)\|$", text[header.end():], re.M)
    assert len(rows) == 8 and len(weights) == 7
    for m, cells in rows:
        written = [c.strip() for c in cells.split("|")]
        assert written == [_h200_cell(int(m), n, k) for n, k in weights], f"{m} rows"
