"""cxiangqi's desktop game (tkinter): ``python -m pyfrontend`` or ``cxiangqi``.

app.py is the window, the main menu and the pages; xiangqi/ and gomoku/
are the two games (each a controller, testable without a display, and a
view); what they share is beside app.py: settings.py (settings and the
autosave), dialogs.py, widgets.py, i18n.py and sounds.py.  Only the public
cxiangqi API is used.
"""

__all__ = ["main"]


def main(argv=None) -> int:
    from .__main__ import main as _main
    return _main(argv)
