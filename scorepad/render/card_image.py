"""The result card: a PNG of a game's standings to share in a message (``links.card``).

Messaging apps preview PNG and JPEG, not SVG, so the card is drawn with Pillow (the Python
imaging library, kept by its maintainers for 15 years; WeasyPrint already depends on it),
1200 × 630 px: twice the 600 px a chat shows, and the 1.91 : 1 of link previews. Text is set
in DejaVu Sans (Debian's fonts-dejavu-core, which the Makefile installs for the PDF too: Latin,
Greek, Cyrillic, Hebrew and Arabic); Pillow's own font stands in where no DejaVu is found.
With Pillow's Raqm layout (libraqm), right-to-left names are laid out and shaped. A name or
title too wide for its place is set smaller, down to a floor, then cut with an ellipsis; a
long name goes onto two lines first.
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw, ImageFont

if TYPE_CHECKING:
    from ..pages.card import ResultCard

WIDTH, HEIGHT = 1200, 630
MARGIN = 60
GREEN = "#0b5d3b"  # the app's theme colour, as the icons
PAPER = "#f6f7f9"
INK = "#1b1f24"
MUTED = "#59636e"
LEADER = "#dcefe4"  # the band behind the first place
NEGATIVE = "#a32020"
ELLIPSIS = "…"

#: Where Debian, Fedora, Arch, Alpine, Homebrew and macOS keep fonts; ``SCOREPAD_FONT_DIR``
#: (the environment) is looked in first.
FONT_DIRS = (
    "/usr/share/fonts",
    "/usr/local/share/fonts",
    "/opt/homebrew/share/fonts",
    "/Library/Fonts",
    str(Path.home() / ".local/share/fonts"),
)
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@lru_cache(maxsize=4)
def font_file(name: str) -> Path | None:
    """The first file called ``name`` (e.g. ``DejaVuSans-Bold.ttf``) under ``$SCOREPAD_FONT_DIR``
    or :data:`FONT_DIRS`, searched recursively once per process; None when there is none."""
    extra = os.environ.get("SCOREPAD_FONT_DIR")
    for folder in ((extra,) if extra else ()) + FONT_DIRS:
        root = Path(folder)
        if root.is_dir():
            for found in sorted(root.rglob(name)):
                if found.is_file():
                    return found
    return None


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> Font:
    """DejaVu Sans (Bold) at ``size`` px, or Pillow's built-in font at that size without it."""
    path = font_file("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    if path is None:
        return ImageFont.load_default(size)
    return ImageFont.truetype(str(path), size)


def text_width(draw: ImageDraw.ImageDraw, text: str, face: Font) -> float:
    """The advance width of ``text`` in ``face``, in px."""
    return draw.textlength(text, font=face)


def fitted(
    draw: ImageDraw.ImageDraw, text: str, width: float, sizes: Sequence[int], bold: bool = False
) -> tuple[str, Font]:
    """``text`` and the largest of ``sizes`` (largest first, at least one) at which it fits
    ``width`` px; at the last size, ``text`` cut and ended with an ellipsis until it fits."""
    for size in sizes:
        face = font(size, bold)
        if text_width(draw, text, face) <= width:
            return text, face
    cut = text
    while cut and text_width(draw, cut + ELLIPSIS, face) > width:
        cut = cut[:-1]
    return cut.rstrip() + ELLIPSIS, face


def two_lines(draw: ImageDraw.ImageDraw, text: str, width: float, face: Font) -> tuple[str, str] | None:
    """``text`` split into two lines that each fit ``width`` px in ``face``: at the space
    nearest the middle that works, else (one long word) at the character nearest the middle
    that works; None when no split fits."""

    def fits(line: str) -> bool:
        return text_width(draw, line, face) <= width

    middle = len(text) / 2
    spaces = sorted((i for i, ch in enumerate(text) if ch == " "), key=lambda i: abs(i - middle))
    for i in spaces:
        first, second = text[:i].rstrip(), text[i + 1 :].lstrip()
        if first and second and fits(first) and fits(second):
            return first, second
    for i in sorted(range(1, len(text)), key=lambda i: abs(i - middle)):
        if fits(text[:i]) and fits(text[i:]):
            return text[:i], text[i:]
    return None


def name_lines(draw: ImageDraw.ImageDraw, name: str, width: float) -> tuple[tuple[str, ...], Font]:
    """A player's name in ``width`` px: on one line from 42 px down to 28 px, else on two lines
    from 30 px down to 20 px (a long name is shown whole), else one line of 22 px cut with an
    ellipsis."""
    for size in sizes(42, 28):
        face = font(size)
        if text_width(draw, name, face) <= width:
            return (name,), face
    for size in sizes(30, 20):
        face = font(size)
        split = two_lines(draw, name, width, face)
        if split is not None:
            return split, face
    cut, face = fitted(draw, name, width, (22,))
    return (cut,), face


def sizes(largest: int, smallest: int) -> range:
    """Font sizes from ``largest`` down to ``smallest`` px, two at a time."""
    return range(largest, smallest - 1, -2)


def render_card(card: ResultCard) -> bytes:
    """The PNG (1200 × 630 px, RGB) of ``card``: a green band with the title and the details
    line, the heading, one row per player (rank, name, points right-aligned; the leaders on a
    light green band, negative points in red) and the footer."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    inner = WIDTH - 2 * MARGIN

    draw.rectangle((0, 0, WIDTH, 160), fill=GREEN)
    title, face = fitted(draw, card.title, inner, sizes(56, 30), bold=True)
    draw.text((MARGIN, 58), title, font=face, fill="white", anchor="lm")
    details, face = fitted(draw, card.details, inner, sizes(30, 22))
    draw.text((MARGIN, 122), details, font=face, fill="#e3f1e8", anchor="lm")

    draw.text((MARGIN, 205), card.heading, font=font(34, bold=True), fill=INK, anchor="lm")
    rows(draw, card, top=240, height=82)

    draw.text((MARGIN, HEIGHT - 34), card.footer, font=font(24), fill=MUTED, anchor="lm")
    out = io.BytesIO()
    image.save(out, format="PNG")  # zlib at its default level: optimize=True doubles the time for 4 % less
    return out.getvalue()


def rows(draw: ImageDraw.ImageDraw, card: ResultCard, top: int, height: int) -> None:
    """The players' rows from ``top``, ``height`` px each."""
    placings = card.placings
    rank_face = font(40, bold=True)
    rank_width = max((text_width(draw, f"{p.rank}.", rank_face) for p in placings), default=0) + 24
    # The points column is as wide as its widest number (a long one is set smaller first).
    points = [fitted(draw, p.points, WIDTH / 3, sizes(44, 24), bold=True) for p in placings]
    points_width = max((text_width(draw, text, face) for text, face in points), default=0)
    name_left = MARGIN + rank_width
    name_width = WIDTH - MARGIN - points_width - 32 - name_left
    for index, (placing, (shown, points_face)) in enumerate(zip(placings, points, strict=True)):
        middle = top + index * height + height / 2
        if placing.rank == 1:
            draw.rounded_rectangle(
                (MARGIN - 20, middle - height / 2 + 6, WIDTH - MARGIN + 20, middle + height / 2 - 6),
                radius=14,
                fill=LEADER,
            )
        draw.text((MARGIN, middle), f"{placing.rank}.", font=rank_face, fill=MUTED, anchor="lm")
        lines, face = name_lines(draw, placing.name, name_width)
        step = face.size * 1.2 if isinstance(face, ImageFont.FreeTypeFont) else 24
        for number, line in enumerate(lines):
            y = middle + (number - (len(lines) - 1) / 2) * step
            draw.text((name_left, y), line, font=face, fill=INK, anchor="lm")
        colour = NEGATIVE if shown.startswith("−") else INK
        draw.text((WIDTH - MARGIN, middle), shown, font=points_face, fill=colour, anchor="rm")
