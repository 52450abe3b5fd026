"""``cuda.core``, imported on first use, once, under a lock.

``cuda.core`` fills its package namespace from a versioned subpackage (``cu12`` or ``cu13``) while
it is imported. A thread that imports it while another thread's first import is still under way
can find the names missing ("cannot import name 'Program' from 'cuda.core.cu13'"): the first
kernels of a program that compiles or launches from several threads at once (the tuner's
parallel compiles, a model served from several threads) would fail at random. Every use of
``cuda.core`` in warpgemm goes through :func:`cuda_core`. The import stays lazy, so that
``import warpgemm`` does not pay for it (about 0.2 s).
"""

from __future__ import annotations

import threading
from types import ModuleType

__all__ = ["cuda_core"]

_module: ModuleType | None = None
_lock = threading.Lock()


def cuda_core() -> ModuleType:
    """The ``cuda.core`` module, imported by the first caller while any others wait."""
    global _module
    if _module is None:
        with _lock:
            if _module is None:
                import cuda.core

                _module = cuda.core
    return _module
