"""One blueprint per feature: games (home, new game, game page), rounds, api."""
