"""Drawing what the pages show as files: QR codes, charts, the result card, the printed sheet's
PDF. Below :mod:`scorepad.pages` (which may use them) and above the engine; it knows no request,
no session and no table."""
