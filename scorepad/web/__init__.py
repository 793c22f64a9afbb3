"""The web layer's shared parts, below the views and above the services: error answers
(:mod:`.errors`), loading a game or preset by its token (:mod:`.loaders`), this device's
id (:mod:`.device`) and the limits on what one client stores (:mod:`.limits`)."""
