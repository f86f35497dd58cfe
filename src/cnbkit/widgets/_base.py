"""The panel base class: controls, one Figure redrawn in place, an Output that shows it, and
the static copy of what it showed first for readers without a kernel."""

from __future__ import annotations

import base64
import io
from typing import Any

import pandas as pd

from ..analysis.conventions import TENOR_LABELS

__all__ = ["Panel", "selection_first"]

#: Pixels per character of a control's text (the lab's 13 px UI font), and what a control
#: adds around it (padding, a dropdown's arrow, a list's scroll bar).
_CHAR_PX, _CHROME_PX = 7.5, 36


def selection_first(options: list[Any], value: tuple[Any, ...]) -> list[Any]:
    """``options`` (values, or (label, value) pairs) with those whose value is in ``value``
    first, in the order of ``value``, then the rest in their order: a list shows what is
    selected without scrolling.

    Example:
        >>> selection_first(["AUD", "EUR", "GBP", "USD"], ("USD", "EUR"))
        ['USD', 'EUR', 'AUD', 'GBP']
    """
    def key(option: Any) -> Any:
        return option[1] if isinstance(option, tuple) else option

    chosen = {key(option): option for option in options if key(option) in value}
    return [chosen[v] for v in value if v in chosen] + [o for o in options
                                                         if key(o) not in chosen]


class Panel:
    """Base of the panels: subclasses build ``self.controls`` and implement :meth:`draw`.

    Attributes:
        figure: the matplotlib ``Figure`` (kept and redrawn in place).
        plotted: label -> pandas Series of what the last redraw plotted.
        output: the ``ipywidgets.Output`` that shows the figure as a PNG.
        widget: the whole panel (controls above the output) as one ipywidgets box.
        redraws: how many times the figure was drawn.
        first_png: the PNG of the first drawing (what the panel shows when it appears).
        first_table: a table of what the first drawing plotted (:meth:`shown_table`).

    Displayed in a notebook, a panel is the interactive widget and, in the same output, the
    PNG of its first drawing (a page or a notebook viewer without a kernel or widget support,
    such as the docs or GitHub, shows that); a second output is the table of what that
    drawing plotted.
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
            self._fit(control)
        self.widget = w.VBox([w.HBox(self.controls, layout=w.Layout(
            flex_flow="row wrap", align_items="flex-start", grid_gap="4px 16px")),
            self.status, self.output])
        self.redraw()
        labels = list(self.plotted)
        more = f" and {len(labels) - 3} more" if len(labels) > 3 else ""
        self.first_summary = (f"{type(self).__name__}: {', '.join(labels[:3])}{more}"
                              if labels else self.summary())

    def _fit(self, control: Any) -> None:
        """Lay ``control`` out for the values it holds: its description never cut, a list or
        a dropdown as wide as its longest label, a range slider wide enough that its handles
        stay apart and its readout ("2013 - 2017") is read whole."""
        w = self._w
        control.style.description_width = "initial"
        label = len(str(control.description or "")) * _CHAR_PX + 12
        options = getattr(control, "_options_labels", None)
        if isinstance(control, w.ToggleButtons):
            return
        if options is not None:
            longest = max((len(str(text)) for text in options), default=8)
            control.layout.width = f"{round(label + longest * _CHAR_PX + _CHROME_PX)}px"
        elif isinstance(control, w.IntRangeSlider | w.IntSlider | w.FloatSlider):
            steps = (control.max - control.min) / (control.step or 1)
            track = min(max(steps * 10, 200), 420)  # ~10 px a step: handles 4 steps apart
            readout = 13 * _CHAR_PX if isinstance(control, w.IntRangeSlider) else 6 * _CHAR_PX
            control.layout.width = f"{round(label + track + readout)}px"

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
        self.figure.savefig(buffer, format="png", metadata={"Software": None})
        self.png = buffer.getvalue()
        if self.redraws == 1:
            self.first_png = self.png
            self.first_table = self.shown_table()
        self.output.outputs = ({
            "output_type": "display_data",
            "data": {"image/png": base64.b64encode(self.png).decode("ascii"),
                     "text/plain": f"<{type(self).__name__} figure>"},
            "metadata": {},
        },)

    def _plot(self, ax: Any, series: pd.Series, label: str, **kw: Any) -> None:
        ax.plot(series.index, series.to_numpy(dtype=float), label=label, **kw)
        self.plotted[label] = series

    def shown_table(self) -> pd.DataFrame:
        """What the figure plots, one row per line: its first and last point (``from``, ``to``:
        a date or a tenor), its ``last`` value, its ``low`` and ``high``."""
        rows = {}
        for label, series in self.plotted.items():
            values = series.astype(float).dropna()
            if values.empty:
                continue
            first, last = (TENOR_LABELS.get(str(day), day) for day in (values.index[0],
                                                                       values.index[-1]))
            rows[label] = {
                "from": f"{first:%Y-%m-%d}" if isinstance(first, pd.Timestamp) else first,
                "to": f"{last:%Y-%m-%d}" if isinstance(last, pd.Timestamp) else last,
                "last": round(float(values.iloc[-1]), 4),
                "low": round(float(values.min()), 4), "high": round(float(values.max()), 4)}
        table = pd.DataFrame.from_dict(rows, orient="index")
        table.index.name = "as first drawn"
        return table

    def figure_text(self) -> str:
        """The text form of the first drawing: ``<figure: summary (W x H px)>``."""
        width, height = (self.figure.get_size_inches() * self.dpi).round().astype(int)
        return f"<figure: {self.first_summary} ({width}x{height} px)>"

    def summary(self) -> str:
        """One line: the panel and what it shows (its text/plain form in a notebook)."""
        return f"{type(self).__name__}: " + ", ".join(self.plotted) if self.plotted else \
            f"{type(self).__name__}: nothing plotted"

    def __repr__(self) -> str:
        return self.summary()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The widget, with the PNG of its first drawing beside it for viewers without
        widgets; text/plain names what the panel shows now."""
        data: dict[str, Any] = dict(self.widget._repr_mimebundle_(**kwargs))
        data["image/png"] = base64.b64encode(self.first_png).decode("ascii")
        data["text/plain"] = self.summary()
        return data

    def _ipython_display_(self) -> None:
        """Show the panel (:meth:`_repr_mimebundle_`, its figure's text form as text/plain),
        then the table of its first drawing."""
        from IPython.display import display

        bundle = self._repr_mimebundle_()
        bundle["text/plain"] = self.figure_text()
        display(bundle, raw=True)  # type: ignore[no-untyped-call]
        if not self.first_table.empty:
            display(self.first_table)  # type: ignore[no-untyped-call]
