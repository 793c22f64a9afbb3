"""Charts drawn on the server as SVG documents (pygal): a game's running totals (the scorer page,
the board and the printable chart page), a member's rating over time and their result per game
(the club's member page).

Each chart is a standalone SVG document served as an image (``<img>``): no JavaScript (pygal's
tooltip script is left out, ``js=[]``), so the page's CSP holds and a phone runs no chart code.
Its ``<style>`` (pygal's own CSS, with no per-chart id prefix: an image is a document of its own)
is followed by :data:`SCHEME_CSS`, passed to pygal as an ``inline:`` stylesheet, which pygal writes
into the same ``<style>`` element: the colours of the app's light theme, and under ``@media screen
and (prefers-color-scheme: dark)`` those of its dark theme (an SVG image follows the colour
scheme of the page that shows it; print stays black on white). That is cleaner than a custom
pygal ``Style`` alone (one palette, no media query) or editing the SVG text afterwards. Each
series also has its own dash pattern, so the lines tell apart in grey print and without colour.

Numbers on the axes are written as the pages write them: the language's digit grouping and a
true minus sign (:func:`scorepad.pages.common.signed`). Words (axis titles) are translated with
Flask-Babel, so the functions run inside a request or an app context with a locale.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from xml.etree import ElementTree

import pygal
from flask_babel import format_decimal
from flask_babel import gettext as _
from pygal.style import Style

from ..i18n import signed

# pygal appends to sys.meta_path a finder for its map plugins (pygal.maps.*, unused here) that has
# only the import API Python 3.4 replaced (find_module, no find_spec): every import that fails after
# it (an optional module tried by a library) then warns (ImportWarning). Taken out again.
sys.meta_path[:] = [finder for finder in sys.meta_path if not isinstance(finder, pygal.PluginImportFixer)]

#: The app's type (static/css/app.css ``--font``).
FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Liberation Sans", sans-serif'

#: The series' colours on the light surface (each ≥ 4.5:1 on white), in seat order.
LIGHT_COLOURS = ("#0b5fce", "#c2410c", "#1a7f37", "#8250df")
#: The same series on the dark surface (#1a1f26; each ≥ 5:1).
DARK_COLOURS = ("#6ea8ff", "#ff9f6e", "#6fdc8c", "#c9a3ff")
#: A dash pattern per series (solid, dashed, dotted, dash-dot), so that lines differ without colour.
DASHES = ("", "8,4", "2,4", "10,4,2,4")

STYLE = Style(
    background="#ffffff",
    plot_background="#ffffff",
    foreground="#1b1f24",
    foreground_strong="#1b1f24",
    foreground_subtle="#d0d7de",
    opacity="1",
    opacity_hover="1",
    stroke_opacity="1",
    stroke_opacity_hover="1",
    transition="0s",
    font_family=FONT,
    title_font_size=15,
    no_data_font_size=16,
    legend_font_size=13,
    label_font_size=12,
    major_label_font_size=12,
    colors=LIGHT_COLOURS,
    guide_stroke_dasharray="2,3",
    major_guide_stroke_dasharray="2,3",
    guide_stroke_color="#d0d7de",
    major_guide_stroke_color="#8c959f",
)


def _scheme_css() -> str:
    series = "".join(f".color-{i}{{stroke:{c};fill:{c}}}" for i, c in enumerate(DARK_COLOURS))
    return (
        "@media screen and (prefers-color-scheme:dark){"
        ".pygal-chart,.graph>.background,.plot>.background{fill:#1a1f26;background-color:#1a1f26}"
        ".graph,.title,.legends .legend text,.axis text,.axis text.major,text.no_data{fill:#e8ebef}"
        ".axis .line,.axis .major.line{stroke:#a3adb8}.axis .guide.line{stroke:#39424d}"
        ".axis .major.guide.line{stroke:#57606a}"
        f"{series}}}"
    )


#: Appended to pygal's stylesheet: the dark theme, for screens only.
SCHEME_CSS = _scheme_css()


def _whole(value: float) -> str:
    """Points on an axis: whole numbers with a true minus sign and the language's grouping."""
    return signed(round(value))


def _decimal(value: float) -> str:
    """A rating on an axis: one decimal, a true minus sign, the language's decimal mark."""
    text = format_decimal(abs(value), format="#,##0.0")
    return f"−{text}" if value < 0 and text.strip("0.,") else text


def _sparse(labels: Sequence[str], most: int = 10) -> dict[str, object]:
    """pygal options showing at most about ``most`` of ``labels`` on the x axis (every k-th, the
    others kept as unlabelled ticks), so that 28 rounds fit a phone's width. An empty label is
    a tick without words (a game on the same date as the one before it) and never counts among
    the ``most``: every k-th of the others is shown."""
    named = [label for label in labels if label]
    if len(named) <= most:
        return {}
    if len(named) == len(labels):
        return {"x_labels_major_every": math.ceil(len(labels) / most), "show_minor_x_labels": False}
    return {"x_labels_major": named[:: math.ceil(len(named) / most)], "show_minor_x_labels": False}


#: The longest title drawn (two lines at most on the chart's width); a longer one is cut with an
#: ellipsis, and stays whole in the document's <title>.
TITLE_SHOWN = 40

#: The legend's sample of a series' line: its length (the legend's square is 12), in the SVG's units.
LEGEND_LINE = 24


def _legend_line(legend: ElementTree.Element) -> None:
    """In a legend entry of pygal's (a ``g.legend``: a coloured square, then the series' name), the
    square made a short stretch of the series' line, with its dash pattern, and the name moved
    after it: the legend then tells the series apart without colour, as the lines do."""
    if "legend" not in (legend.get("class") or "").split():
        return
    children = list(legend)
    square = next((c for c in children if str(c.tag).endswith("rect")), None)
    if square is None or "color-" not in (square.get("class") or ""):
        return
    series = int((square.get("class") or "").split()[0].removeprefix("color-"))
    x, y = float(square.get("x", 0)), float(square.get("y", 0)) + float(square.get("height", 0)) / 2
    line = ElementTree.Element(str(square.tag).replace("rect", "path"))
    line.attrib.update(
        {"d": f"M{x:g} {y:g}h{LEGEND_LINE}", "class": f"color-{series}", "fill": "none", "stroke-width": "3"}
    )
    if DASHES[series % len(DASHES)]:
        line.set("stroke-dasharray", DASHES[series % len(DASHES)])
    legend.insert(children.index(square), line)
    legend.remove(square)
    shift = LEGEND_LINE - float(square.get("width", 0))
    for text in legend.iter():
        if str(text.tag).endswith("text") and text.get("x"):
            text.set("x", f"{float(text.get('x', 0)) + shift:g}")


def _finish(title: str, description: str) -> Callable[[ElementTree.Element], ElementTree.Element]:
    """pygal's XML filter (``add_xml_filter``) that finishes a chart's document: pygal's inline
    ``<script>`` (its tooltip settings, written even with ``js=[]``) and comments taken out, the
    empty ``id`` of an unprefixed chart dropped, the legend's lines (:func:`_legend_line`), the
    document's ``<title>`` the whole ``title`` (the one drawn may be cut) and a ``<desc>``
    (``description``) after it, saying in words what the chart shows."""

    def finish(root: ElementTree.Element) -> ElementTree.Element:
        for parent in list(root.iter()):
            for child in list(parent):
                if not isinstance(child.tag, str) or child.tag.rpartition("}")[2] == "script":
                    parent.remove(child)  # a comment (its tag is a function) or a script
        if not root.get("id"):
            root.attrib.pop("id", None)
        for legend in list(root.iter()):
            _legend_line(legend)
        for index, child in enumerate(root):
            if isinstance(child.tag, str) and child.tag.rpartition("}")[2] == "title":
                child.text = title
                desc = ElementTree.Element(child.tag.replace("title", "desc"))
                desc.text = description
                root.insert(index + 1, desc)
                break
        return root

    return finish


def _render(
    chart: pygal.Line, title: str, description: str, x_labels: Sequence[str], series: Sequence[tuple[str, list]]
) -> bytes:
    """``chart`` with ``series`` (name, values) added, each with its dash pattern, rendered as a
    UTF-8 SVG document finished by :func:`_finish`."""
    chart.x_labels = list(x_labels)
    for i, (name, values) in enumerate(series):
        dash = DASHES[i % len(DASHES)]
        chart.add(name, values, stroke_style={"width": 2.5, "dasharray": dash} if dash else {"width": 2.5})
    chart.add_xml_filter(_finish(title, description))
    return chart.render(is_unicode=True).encode()


def _chart(title: str, x_title: str, y_title: str, formatter: Callable[[float], str], **options: object) -> pygal.Line:
    """A line chart with the app's style and :data:`SCHEME_CSS`, no JavaScript, no XML
    declaration (it is served and embedded as is), an intrinsic size fit for a phone (it scales)."""
    config: dict[str, object] = {
        "width": 400,
        "height": 300,
        "explicit_size": True,
        "title": title if len(title) <= TITLE_SHOWN else title[: TITLE_SHOWN - 1].rstrip() + "…",
        "x_title": x_title,
        "y_title": y_title,
        "style": STYLE,
        "js": [],
        "css": ["file://style.css", "file://graph.css", f"inline:{SCHEME_CSS}"],
        "no_prefix": True,
        "disable_xml_declaration": True,
        "legend_at_bottom": True,
        "legend_at_bottom_columns": 2,
        "truncate_legend": 16,
        "truncate_label": -1,
        "dots_size": 2.5,
        "value_formatter": formatter,
        "no_data_text": _("Nothing to show yet."),
        "margin": 6,
        "margin_bottom": 14,
        "margin_right": 24,  # the last x label (a date such as "Dec 1") is centred on the right edge
        "spacing": 8,
        "print_values": False,
        "show_y_guides": True,
    }
    config.update(options)
    return pygal.Line(**config)


def running_totals_svg(names: Sequence[str], running: Sequence[Sequence[int]], *, title: str) -> bytes:
    """A line per player of a game over its rounds: ``names`` the players (4, seat order),
    ``running`` one tuple of the 4 running totals (points) per round played, in order
    (``scoring.game.score(game).rounds[i].running``); x labels are the round numbers 1, 2, ….
    ``title`` is the chart's title (shown, and its SVG ``<title>``). Returns the SVG document
    (UTF-8 bytes). Raises ValueError when a round's tuple has not one total per name."""
    if any(len(totals) != len(names) for totals in running):
        raise ValueError("each round needs one running total per player")
    labels = [str(n) for n in range(1, len(running) + 1)]
    chart = _chart(title, _("Round"), _("Points"), _whole, **_sparse(labels))
    series = [(name, [totals[seat] for totals in running]) for seat, name in enumerate(names)]
    description = _("Running totals: a line per player, their points after each round.")
    return _render(chart, title, description, labels, series)


def rating_svg(points: Sequence[tuple[str, float, float]]) -> bytes:
    """A member's rating over their rated games: ``points`` one (label, μ, ordinal) per game in
    date order (label: the game's date as the page writes it; ordinal = μ − 3σ, openskill's
    scale): two lines, μ and the ordinal. Returns the SVG document (UTF-8 bytes)."""
    labels = [label for label, _mu, _ordinal in points]
    title = _("Rating")
    chart = _chart(title, _("Game"), _("Rating"), _decimal, **_sparse(labels, 6))
    series = [
        ("μ", [float(mu) for _label, mu, _ordinal in points]),
        (_("ordinal (μ − 3σ)"), [float(ordinal) for _label, _mu, ordinal in points]),
    ]
    description = _("The rating after each game: μ and the ordinal μ − 3σ.")
    return _render(chart, title, description, labels, series)


def results_svg(points: Sequence[tuple[str, int]]) -> bytes:
    """A member's result per game: ``points`` one (label, final) per game in date order (label:
    the game's date as the page writes it; final: the member's final score in points), drawn as
    one line with a dot a game. Returns the SVG document (UTF-8 bytes)."""
    labels = [label for label, _final in points]
    title = _("Result per game")
    chart = _chart(title, _("Game"), _("Points"), _whole, show_legend=False, **_sparse(labels, 6))
    description = _("The final score of each game, in points.")
    return _render(chart, title, description, labels, [(title, [final for _label, final in points])])
