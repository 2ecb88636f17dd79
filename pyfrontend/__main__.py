"""Starts the desktop game: ``python -m pyfrontend`` or the ``cxiangqi`` command.

Without a display it says so in one line and exits with status 1.
"""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="cxiangqi", description="中国象棋 — Chinese chess (xiangqi)")
    parser.add_argument("pgn", nargs="?", help="a PGN game to open")
    parser.add_argument("--lang", choices=("zh", "en"), help="language of the labels")
    from cxiangqi import __version__
    parser.add_argument("--version", action="version", version=f"cxiangqi {__version__}")
    args = parser.parse_args(argv)
    try:
        import tkinter
    except ImportError:
        print("cxiangqi: the game needs tkinter (on Debian/Ubuntu: apt install python3-tk)",
              file=sys.stderr)
        return 1
    try:
        root = tkinter.Tk()
    except tkinter.TclError as exc:
        print(f"cxiangqi: a display is needed to play (no usable display: {exc})", file=sys.stderr)
        return 1
    from .view import App
    app = App(root)
    if args.lang:
        app.set_language(args.lang)
    if args.pgn:
        app.load_from(args.pgn)
    try:
        root.mainloop()
    except KeyboardInterrupt:
        app.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
