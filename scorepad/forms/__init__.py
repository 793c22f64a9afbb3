"""Flask-WTF forms, one module by subject (games, rounds, presets, nights, clubs, confirmation)
over :mod:`scorepad.forms.common`, the helpers several of them use.

The forms only collect what was typed and turn it into the documents of
shared/spec/game-format.md and club-format.md; the engine decides whether it is valid, and
each form's ``add_engine_error`` files the engine's refusal next to the field its path names.
"""
