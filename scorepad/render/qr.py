"""QR codes (segno) of the links the scorepad hands out: a game's board, a night's board, a
table's scorer page on its printed card."""

from __future__ import annotations

import io

import segno


def qr_svg(url: str) -> bytes:
    """An SVG document of the QR code of ``url`` (error correction M, black on white, a
    4-module quiet zone, 4 px a module as its intrinsic size; it scales without loss)."""
    code = segno.make(url, error="m", micro=False)
    out = io.BytesIO()
    code.save(out, kind="svg", scale=4, border=4, dark="#000", light="#fff", xmldecl=False, title="QR code", unit=None)
    return out.getvalue()
