"""SVG charts computed on the server: the template only places rectangles, polylines and
labels at the coordinates given here. Nothing runs in the browser; the page works offline
and under `script-src 'self'` with no script at all."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

WIDTH = 720
HEIGHT = 180
PAD_LEFT = 44
PAD_BOTTOM = 22
PAD_TOP = 8


@dataclass
class BarChart:
    width: int
    height: int
    bars: list[dict[str, object]] = field(default_factory=list)
    overlay: list[dict[str, object]] = field(default_factory=list)
    labels: list[dict[str, object]] = field(default_factory=list)
    grid: list[dict[str, object]] = field(default_factory=list)
    total: float = 0

    @property
    def empty(self) -> bool:
        return self.total == 0


def _nice_max(value: float) -> float:
    if value <= 0:
        return 1
    magnitude = 10 ** (len(str(int(value))) - 1)
    for step in (1, 2, 2.5, 5, 10):
        if value <= step * magnitude:
            return step * magnitude
    return value


def bar_chart(
    labels: Sequence[str],
    values: Sequence[float],
    overlay: Sequence[float] | None = None,
    *,
    width: int = WIDTH,
    height: int = HEIGHT,
) -> BarChart:
    """Bars per label (days), optionally a second series drawn inside them (e.g. unmet)."""
    chart = BarChart(width, height, total=float(sum(values)))
    top = _nice_max(max(values, default=0))
    plot_w = width - PAD_LEFT - 4
    plot_h = height - PAD_BOTTOM - PAD_TOP
    n = max(len(values), 1)
    step = plot_w / n
    bar_w = max(step * 0.8, 1.0)
    for fraction in (0.0, 0.5, 1.0):
        y = PAD_TOP + plot_h * (1 - fraction)
        chart.grid.append({"y": round(y, 1), "label": _short(top * fraction)})
    every = max(1, n // 8)
    for i, (label, value) in enumerate(zip(labels, values, strict=False)):
        h = plot_h * value / top
        x = PAD_LEFT + i * step + (step - bar_w) / 2
        chart.bars.append(
            {
                "x": round(x, 1),
                "y": round(PAD_TOP + plot_h - h, 1),
                "w": round(bar_w, 1),
                "h": round(h, 1),
                "title": f"{label}: {_short(value)}",
            }
        )
        if overlay is not None and i < len(overlay) and overlay[i]:
            oh = plot_h * overlay[i] / top
            chart.overlay.append(
                {
                    "x": round(x, 1),
                    "y": round(PAD_TOP + plot_h - oh, 1),
                    "w": round(bar_w, 1),
                    "h": round(oh, 1),
                    "title": f"{label}: {_short(overlay[i])}",
                }
            )
        if i % every == 0:
            chart.labels.append({"x": round(x + bar_w / 2, 1), "text": label[5:]})
    return chart


def sparkline(values: Sequence[int], width: int = 120, height: int = 24) -> str:
    """Points of a polyline for a small trend (an empty string for no data)."""
    if not values or max(values) == 0:
        return ""
    top = max(values)
    if len(values) == 1:
        return f"0,{height / 2} {width},{height / 2}"
    step = width / (len(values) - 1)
    return " ".join(
        f"{round(i * step, 1)},{round(height - 2 - (height - 4) * v / top, 1)}"
        for i, v in enumerate(values)
    )


def share_bars(rows: Sequence[dict[str, object]], key: str, width: int = 300) -> list[int]:
    """Widths of horizontal bars proportional to `key` (path mix, demand shares)."""
    top = max((float(r[key]) for r in rows), default=0.0)  # type: ignore[arg-type]
    return [round(width * float(r[key]) / top) if top else 0 for r in rows]  # type: ignore[arg-type]


def _short(value: float) -> str:
    if value >= 10_000:
        return f"{value / 1000:.0f}k"
    if value >= 1000:
        return f"{value / 1000:.1f}k"
    if value != int(value):
        return f"{value:.2f}"
    return str(int(value))
