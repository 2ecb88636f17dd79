"""cxiangqi's desktop game (tkinter): ``python -m pyfrontend`` or ``cxiangqi``.

controller.py holds the game flow (testable without a display); view.py,
board_canvas.py and pages.py draw it; sounds.py plays the synthesized sounds.
Only the public cxiangqi API is used.
"""

__all__ = ["main"]


def main(argv=None) -> int:
    from .__main__ import main as _main
    return _main(argv)
