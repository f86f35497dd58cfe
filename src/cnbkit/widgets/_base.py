"""The panel base class: controls, one Figure redrawn in place, an Output that shows it."""

from __future__ import annotations

import base64
import io
from typing import Any

import pandas as pd

__all__ = ["Panel"]


class Panel:
    """Base of the panels: subclasses build ``self.controls`` and implement :meth:`draw`.

    Attributes:
        figure: the matplotlib ``Figure`` (kept and redrawn in place).
        plotted: label -> pandas Series of what the last redraw plotted.
        output: the ``ipywidgets.Output`` that shows the figure as a PNG.
        widget: the whole panel (controls above the output) as one ipywidgets box.
        redraws: how many times the figure was drawn.
    """

    figsize: tuple[float, float] = (9.0, 4.0)
    dpi = 80

    def __init__(self) -> None:
        import ipywidgets as w
        from matplotlib.figure import Figure

        self._w = w
        self.figure = Figure(figsize=self.figsize, dpi=self.dpi, layout="constrained")
        self.output = w.Output()
        self.status = w.HTML()
        self.plotted: dict[str, pd.Series] = {}
        self.redraws = 0
        self.controls: list[Any] = []

    def _finish(self) -> None:
        """Lay out the controls, observe them, draw once. Call at the end of ``__init__``."""
        w = self._w
        for control in self.controls:
            control.observe(self._on_change, names="value")
        self.widget = w.VBox([w.HBox(self.controls, layout=w.Layout(flex_flow="row wrap")),
                              self.status, self.output])
        self.redraw()

    def _on_change(self, _change: dict[str, Any]) -> None:
        self.redraw()

    def draw(self) -> None:  # pragma: no cover - abstract
        """Fill ``self.figure`` and ``self.plotted`` from the controls' values."""
        raise NotImplementedError

    def redraw(self) -> None:
        """Clear the figure, draw it again and show it in the output."""
        self.figure.clear()
        self.plotted = {}
        self.draw()
        self.redraws += 1
        buffer = io.BytesIO()
        self.figure.savefig(buffer, format="png")
        self.png = buffer.getvalue()
        self.output.outputs = ({
            "output_type": "display_data",
            "data": {"image/png": base64.b64encode(self.png).decode("ascii"),
                     "text/plain": f"<{type(self).__name__} figure>"},
            "metadata": {},
        },)

    def _plot(self, ax: Any, series: pd.Series, label: str, **kw: Any) -> None:
        ax.plot(series.index, series.to_numpy(dtype=float), label=label, **kw)
        self.plotted[label] = series

    def summary(self) -> str:
        """One line: the panel and what it shows (its text/plain form in a notebook)."""
        return f"{type(self).__name__}: " + ", ".join(self.plotted) if self.plotted else \
            f"{type(self).__name__}: nothing plotted"

    def __repr__(self) -> str:
        return self.summary()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data: dict[str, Any] = dict(self.widget._repr_mimebundle_(**kwargs))
        data["text/plain"] = self.summary()
        return data
