"""A bar chart as a PNG, drawn pixel by pixel and encoded with zlib: the weekly digest's
image, made without a plotting library and without internet (Telegram shows a PNG as a photo,
not an SVG). Numbers go in the message's caption; the image carries the shape."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence

Colour = tuple[int, int, int]
PAPER: Colour = (251, 248, 245)
LINE: Colour = (230, 223, 216)
LIGHT: Colour = (201, 138, 156)
WINE: Colour = (123, 31, 58)


def _chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def bar_png(
    values: Sequence[float],
    overlay: Sequence[float] = (),
    width: int = 640,
    height: int = 240,
) -> bytes:
    """Bars for `values` (light) with `overlay` drawn inside them (dark), on a baseline."""
    pixels = [bytearray(bytes(PAPER) * width) for _ in range(height)]

    def fill(x0: int, y0: int, x1: int, y1: int, colour: Colour) -> None:
        for y in range(max(y0, 0), min(y1, height)):
            row = pixels[y]
            for x in range(max(x0, 0), min(x1, width)):
                row[3 * x : 3 * x + 3] = bytes(colour)

    pad = 16
    top = max(max(values, default=0), 1)
    plot_h = height - 2 * pad
    for fraction in (0.25, 0.5, 0.75, 1.0):
        y = pad + int(plot_h * (1 - fraction))
        fill(pad, y, width - pad, y + 1, LINE)
    n = max(len(values), 1)
    step = (width - 2 * pad) / n
    bar = max(int(step * 0.7), 1)
    for i, value in enumerate(values):
        x = pad + int(i * step + (step - bar) / 2)
        h = int(plot_h * value / top)
        fill(x, pad + plot_h - h, x + bar, pad + plot_h, LIGHT)
        if i < len(overlay) and overlay[i]:
            oh = int(plot_h * overlay[i] / top)
            fill(x, pad + plot_h - oh, x + bar, pad + plot_h, WINE)
    fill(pad, pad + plot_h, width - pad, pad + plot_h + 2, WINE)
    raw = b"".join(b"\x00" + bytes(row) for row in pixels)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(raw, 6))
        + _chunk(b"IEND", b"")
    )
