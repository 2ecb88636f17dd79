"""Every label the game shows, in Chinese (the default) and English.

>>> tr("new_game", "zh"), tr("new_game", "en")
('新游戏', 'New game')
>>> tr("turn", "en", side=tr("red", "en"))
'Red to move'
"""

from __future__ import annotations

from typing import Dict, Tuple

LANGUAGES = ("zh", "en")

# key: (Chinese, English); {name} fields are filled by tr(**fields)
TEXT: Dict[str, Tuple[str, str]] = {
    # window, welcome screen and main menu
    "title": ("中国象棋", "Chinese Chess"),
    "subtitle": ("楚河汉界 · 运筹帷幄", "Across the river, plan the campaign"),
    "new_game": ("新游戏", "New game"),
    "resume": ("继续上局", "Resume last game"),
    "load_game": ("载入棋局…", "Load game…"),
    "save_game": ("保存棋局…", "Save game…"),
    "rules": ("象棋规则", "Rules"),
    "history": ("象棋历史", "History"),
    "sound_on": ("声音：开", "Sound: on"),
    "sound_off": ("声音：关", "Sound: off"),
    "sound": ("声音", "Sound"),
    "language": ("语言 / Language", "Language / 语言"),
    "quit": ("退出", "Quit"),
    "other_games": ("更多棋类", "More games"),
    "gomoku": ("五子棋", "Gomoku"),
    "coming_soon": ("即将推出", "coming soon"),
    "main_menu": ("返回主菜单", "Main menu"),
    "back": ("返回", "Back"),
    "close": ("关闭", "Close"),
    "ok": ("确定", "OK"),
    "cancel": ("取消", "Cancel"),
    # menus
    "menu_game": ("游戏", "Game"),
    "menu_move": ("走棋", "Moves"),
    "menu_computer": ("电脑", "Computer"),
    "menu_view": ("视图", "View"),
    "menu_help": ("帮助", "Help"),
    "copy_fen": ("复制局面 FEN", "Copy FEN"),
    "paste_fen": ("粘贴局面 FEN", "Paste FEN"),
    "about": ("关于", "About"),
    "about_text": ("中国象棋 — cxiangqi 的桌面版。\n引擎：cxiangqi 内置搜索（Cython 编译核心）。",
                   "Chinese Chess — the desktop game of cxiangqi.\n"
                   "Engine: cxiangqi's built-in search (compiled Cython core)."),
    # new game dialog
    "mode": ("模式", "Mode"),
    "mode_hvh": ("人人对弈", "Human vs human"),
    "mode_hvc": ("人机对弈", "Human vs computer"),
    "mode_cvc": ("机机对弈", "Computer vs computer"),
    "your_side": ("执子", "You play"),
    "level": ("难度", "Level"),
    "red_level": ("红方电脑难度", "Red level"),
    "black_level": ("黑方电脑难度", "Black level"),
    "hint_thinking": ("正在计算提示…", "Finding a hint…"),
    "level_easy": ("简单", "easy"),
    "level_normal": ("普通", "normal"),
    "level_hard": ("困难", "hard"),
    "level_external": ("外部引擎", "external engine"),
    "level_n": ("{n} 级", "level {n}"),
    "start": ("开始", "Start"),
    # sides and status
    "red": ("红方", "Red"),
    "black": ("黑方", "Black"),
    "turn": ("{side}走棋", "{side} to move"),
    "thinking": ("{side}（电脑）思考中…", "{side} (computer) is thinking…"),
    "check": ("将军", "Check"),
    "paused": ("已暂停", "Paused"),
    "reviewing": ("复盘：第 {ply} 步", "Review: ply {ply}"),
    "review_start": ("复盘：开局", "Review: start"),
    "you": ("你", "you"),
    "computer": ("电脑", "computer"),
    # game buttons
    "undo": ("悔棋", "Undo"),
    "redo": ("还原", "Redo"),
    "hint": ("提示", "Hint"),
    "flip": ("翻转棋盘", "Flip board"),
    "resign": ("认输", "Resign"),
    "offer_draw": ("求和", "Offer draw"),
    "again": ("再来一局", "New game"),
    "pause": ("暂停", "Pause"),
    "resume_play": ("继续", "Resume"),
    "step": ("单步", "Step"),
    "speed": ("速度", "Speed"),
    "back_to_game": ("回到对局", "Back to game"),
    "moves": ("棋谱", "Moves"),
    "notation": ("记谱法", "Notation"),
    "notation_chinese": ("中文", "Chinese"),
    "notation_wxf": ("WXF", "WXF"),
    "notation_iccs": ("ICCS", "ICCS"),
    "engine_panel": ("引擎信息", "Engine"),
    "show_engine": ("显示引擎信息", "Show engine panel"),
    "score": ("评分（红方）", "Score (Red)"),
    "depth": ("深度", "Depth"),
    "nodes": ("节点", "Nodes"),
    "pv": ("主要变化", "Best line"),
    "mate_in": ("{n} 步杀", "mate in {n}"),
    "mated_in": ("{n} 步被杀", "mated in {n}"),
    "start_position": ("开局", "Start"),
    # game over
    "game_over": ("对局结束", "Game over"),
    "red_wins": ("红方胜", "Red wins"),
    "black_wins": ("黑方胜", "Black wins"),
    "draw": ("和棋", "Draw"),
    "you_win": ("你赢了！", "You win!"),
    "you_lose": ("你输了。", "You lost."),
    "review": ("复盘", "Review"),
    "reason_CHECKMATE": ("将死", "checkmate"),
    "reason_STALEMATE": ("困毙", "stalemate (no legal move)"),
    "reason_PERPETUAL_CHECK": ("长将作负", "perpetual check loses"),
    "reason_PERPETUAL_CHASE": ("长捉作负", "perpetual chase loses"),
    "reason_REPETITION": ("重复局面", "repetition"),
    "reason_MOVE_LIMIT": ("六十回合无吃子", "60 moves without a capture"),
    "reason_INSUFFICIENT_MATERIAL": ("双方无进攻子力", "no attacking pieces left"),
    "reason_RESIGNATION": ("认输", "resignation"),
    "reason_AGREEMENT": ("双方议和", "draw agreed"),
    "reason_TIME_FORFEIT": ("超时", "time forfeit"),
    # dialogs
    "draw_offer_q": ("{side}提议和棋，{other}是否同意？", "{side} offers a draw. Does {other} accept?"),
    "draw_declined": ("对方拒绝和棋。", "The draw offer was declined."),
    "resign_q": ("确定认输吗？", "Really resign?"),
    "resume_q": ("发现上次未下完的棋局（{n} 步），是否继续？",
                 "An unfinished game was found ({n} plies). Resume it?"),
    "pgn_files": ("PGN 棋谱", "PGN games"),
    "all_files": ("所有文件", "All files"),
    "load_failed": ("无法读取棋局：{err}", "Could not read the game: {err}"),
    "save_failed": ("无法保存棋局：{err}", "Could not save the game: {err}"),
    "saved": ("已保存：{path}", "Saved: {path}"),
    "bad_fen": ("无效的 FEN：{err}", "Invalid FEN: {err}"),
    "fen_copied": ("FEN 已复制到剪贴板", "FEN copied to the clipboard"),
    "engine_failed": ("外部引擎出错：{err}", "External engine failed: {err}"),
    "no_hint": ("没有可提示的着法", "No move to suggest"),
}


def tr(key: str, lang: str = "zh", **fields: object) -> str:
    """The label `key` in `lang` ("zh" or "en"), with {fields} filled in;
    an unknown key is returned as it is, so a missing label shows, never crashes."""
    pair = TEXT.get(key)
    if pair is None:
        return key
    text = pair[1] if lang == "en" else pair[0]
    return text.format(**fields) if fields else text
