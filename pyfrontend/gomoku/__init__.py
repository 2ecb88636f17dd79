"""Gomoku (五子棋): controller.py holds the game flow, view.py the screen."""
