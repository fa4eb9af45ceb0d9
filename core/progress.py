"""A progress bar for long commands (make_season, import_club, bench/run.py), by tqdm.

The bar goes to the command's error stream and only when that stream is a terminal
(tqdm's `disable=None`): a command whose output is piped, logged or captured by a test
prints no bar, only its usual lines.
"""

from __future__ import annotations

import sys
from typing import Any

from tqdm import tqdm


def _plain(text: str) -> str:
    return text


class _Stream:
    """A Django command's OutputWrapper as a plain stream for tqdm: OutputWrapper adds a
    newline to every write, which would print each redraw of the bar on a line of its own."""

    def __init__(self, wrapper):
        self.wrapper = wrapper

    def write(self, text: str) -> None:
        # Plain: Django colours a terminal's error stream red, which a bar is not.
        self.wrapper.write(text, style_func=_plain, ending="")

    def flush(self) -> None:
        self.wrapper.flush()

    def isatty(self) -> bool:
        return self.wrapper.isatty()


def progress_bar(
    *, total: int | None, unit: str, desc: str, file: Any = None, scale: bool = False
) -> tqdm:
    """A bar counting `unit`s up to `total`, with the rate and the time left, on `file`
    (a stream or a command's `self.stderr`; standard error by default) when it is a
    terminal, and silent otherwise; `scale` writes large counts as 1.2M. Use it as a
    context manager and call `update(n)`."""
    stream = file if file is not None else sys.stderr
    if hasattr(stream, "style_func"):  # a management command's OutputWrapper
        stream = _Stream(stream)
    return tqdm(
        total=total,
        unit=f" {unit}",
        desc=desc,
        file=stream,
        disable=None,  # no bar unless the stream is a terminal
        unit_scale=scale,
        dynamic_ncols=True,
        leave=True,
    )
