"""Exceptions raised by cxiangqi.  All are ValueError subclasses."""

__all__ = ["InvalidFenError", "InvalidMoveError", "IllegalMoveError", "AmbiguousMoveError"]


class InvalidFenError(ValueError):
    """A FEN that is malformed or describes an impossible position."""


class InvalidMoveError(ValueError):
    """Move text or squares that do not describe a move (e.g. ``"h2e"``)."""


class IllegalMoveError(ValueError):
    """A well-formed move that is not legal in the position it was tried in."""


class AmbiguousMoveError(IllegalMoveError):
    """Move text (WXF or Chinese notation) that fits more than one legal
    move, as python-chess's ``AmbiguousMoveError``."""
