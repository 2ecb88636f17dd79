"""Starts the desktop game: ``python -m pyfrontend [PATH]`` or the
``cxiangqi [PATH]`` command.  PATH is a game record (PGN, XQF, DhtmlXQ,
...): it opens in review mode, as a file association would.

Without a display it says so in one line and exits with status 1.
"""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="cxiangqi", description="中国象棋 — Chinese chess (xiangqi)")
    parser.add_argument("record", nargs="?", metavar="PATH",
                        help="a game record to open (PGN, XQF, DhtmlXQ; the format is told by the content)")
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
    from .app import App
    app = App(root)
    if args.lang:
        app.set_language(args.lang)
    if args.record:
        app.load_from(args.record)
    try:
        root.mainloop()
    except KeyboardInterrupt:
        app.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
