"""Placeholder (the position editor is written next)."""


def open_editor(app, fen):
    raise NotImplementedError
