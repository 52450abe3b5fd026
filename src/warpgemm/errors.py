"""Exceptions warpgemm raises beyond the built-in TypeError / ValueError / RuntimeError."""


class WarpgemmError(Exception):
    """Base class of warpgemm's own errors."""


class KernelNotFoundError(WarpgemmError, KeyError):
    """No kernel or family of that name in the catalogue."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class CompileError(WarpgemmError, RuntimeError):
    """NVRTC rejected a kernel; the message carries the compiler log."""


class NoDeviceError(WarpgemmError, RuntimeError):
    """A computation was asked for but no CUDA device is available."""


class UsageError(WarpgemmError, ValueError):
    """A command-line argument is wrong; the message names it and says what it accepts."""


class MissingExtraError(WarpgemmError, RuntimeError):
    """A kernel needs headers from an optional extra that is not installed; the message names
    the command that installs it."""
