"""One view-model per page: each module builds what its page shows from the engine's
results (:mod:`scorepad.scoring`), as a dict of template variables.

Pages hold no SQL and no Barbu rule: views load the game (through :mod:`scorepad.services`),
call the page's builder and render. :mod:`.common` holds what several pages show (the
standings in rank order, the declarer's contracts, the quota counters, short names).
"""
