"""Xiangqi (中国象棋): controller.py holds the game flow (no display needed),
view.py the game screen, board_canvas.py the board, pages.py the rules and
history pages, editor.py the position editor, files.py reading records of
any format and explain.py why a move is illegal."""
