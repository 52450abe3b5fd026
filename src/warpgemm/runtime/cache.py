"""The on-disk cubin cache.

An entry is one file, ``<root>/<key[:2]>/<key>.cubin-entry``: a JSON header line, then the cubin.
The header records the cubin's length and SHA-256, so a truncated or corrupt entry is detected
and rebuilt rather than loaded. Entries are written to a temporary file in the same directory
and renamed into place, so readers never see half an entry and two processes writing the same
key both succeed (the last rename wins; both wrote the same bytes).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

_SUFFIX = ".cubin-entry"


def cache_root() -> Path:
    """``$WARPGEMM_CACHE``, or ``~/.cache/warpgemm``."""
    env = os.environ.get("WARPGEMM_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "warpgemm"


def make_key(*parts: str) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = part.encode()
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def _path(key: str) -> Path:
    return cache_root() / key[:2] / (key + _SUFFIX)


def load(key: str) -> tuple[dict[str, Any], bytes] | None:
    """The (metadata, cubin) stored under ``key``, or None when absent or unreadable."""
    path = _path(key)
    try:
        blob = path.read_bytes()
    except OSError:
        return None
    try:
        newline = blob.index(b"\n")
        meta = json.loads(blob[:newline])
        cubin = blob[newline + 1:]
        if len(cubin) != meta["cubin_bytes"] or hashlib.sha256(cubin).hexdigest() != meta["cubin_sha256"]:
            return None
        return meta, cubin
    except (ValueError, KeyError, TypeError):
        return None


def store(key: str, meta: dict[str, Any], cubin: bytes) -> None:
    """Write an entry atomically. Failure to write (read-only disk, ...) is not an error."""
    path = _path(key)
    header = dict(meta, cubin_bytes=len(cubin), cubin_sha256=hashlib.sha256(cubin).hexdigest())
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=_SUFFIX)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(json.dumps(header, sort_keys=True).encode() + b"\n")
                f.write(cubin)
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except OSError:
        pass


def usage() -> tuple[int, int]:
    """(number of entries, total bytes) in the cache."""
    root = cache_root()
    count = total = 0
    if root.is_dir():
        for p in root.glob("*/*" + _SUFFIX):
            try:
                total += p.stat().st_size
                count += 1
            except OSError:
                pass
    return count, total
