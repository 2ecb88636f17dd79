"""Every label the game shows, in Chinese (the default) and English.

>>> tr("new_game", "zh"), tr("new_game", "en")
('新游戏', 'New game')
>>> tr("turn", "en", side=tr("red", "en"))
'Red to move'
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Tuple

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
    # gomoku (五子棋)
    "g_title": ("五子棋", "Gomoku"),
    "g_black": ("黑方", "Black"),
    "g_white": ("白方", "White"),
    "g_black_wins": ("黑方胜", "Black wins"),
    "g_white_wins": ("白方胜", "White wins"),
    "g_five": ("五子连珠", "five in a row"),
    "g_full": ("棋盘已满", "the board is full"),
    "g_turn": ("{side}落子", "{side} to play"),
    "g_thinking": ("{side}（电脑）思考中…", "{side} (computer) is thinking…"),
    "g_play_black": ("执黑（先手）", "Black (first)"),
    "g_play_white": ("执白（后手）", "White (second)"),
    "g_new_settings": ("新对局设置", "Next game"),
    "g_start": ("开始新局", "Start new game"),
    "g_moves": ("第 {n} 手", "Move {n}"),
    "g_rules": ("黑先白后，轮流落子。横、竖、斜任一方向先连成五子（或更多）者胜；棋盘下满无人成五为和棋。",
                "Black plays first, then the players alternate. Five (or more) stones in a row — "
                "across, down or diagonally — win; a full board without five is a draw."),
    "g_restored": ("已恢复上次未下完的棋局", "The unfinished game was restored"),
    "g_files": ("五子棋棋局", "Gomoku games"),
    "g_load_failed": ("无法读取五子棋棋局", "Could not read the gomoku game"),
    "g_search_failed": ("电脑出错：{err}", "The computer failed: {err}"),
    "g_occupied": ("这里已经有棋子了", "That point is taken"),
    # external engine dialog, piece style
    "ext_menu": ("外部引擎…", "External engine…"),
    "ext_title": ("外部引擎", "External engine"),
    "ext_command": ("引擎程序（路径或命令行）", "Engine program (path or command line)"),
    "ext_browse": ("浏览…", "Browse…"),
    "ext_protocol": ("协议", "Protocol"),
    "ext_auto": ("自动", "auto"),
    "ext_test": ("测试", "Test"),
    "ext_save": ("保存", "Save"),
    "ext_use": ("保存并用作电脑对手", "Save and play against it"),
    "ext_testing": ("正在测试…", "Testing…"),
    "ext_ok": ("引擎可用：{name}", "The engine works: {name}"),
    "ext_failed": ("无法使用这个引擎：{err}", "This engine does not work: {err}"),
    "ext_none": ("未设置外部引擎", "No external engine set"),
    "piece_style": ("棋子字体", "Piece characters"),
    "style_simplified": ("简体（帅仕相马车炮兵）", "Simplified (帅 马 车 炮)"),
    "style_traditional": ("繁体（帥仕相傌俥炮兵）", "Traditional (帥 傌 俥 砲)"),
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
    "level_strength": ("{name}（约 {elo} 分）", "{name} (≈ {elo} Elo)"),
    "threads": ("搜索线程", "Search threads"),
    "start": ("开始", "Start"),
    "time_control": ("时限", "Time control"),
    "tc_none": ("不限时", "No clock"),
    "tc_custom": ("自定义…", "Custom…"),
    "tc_base": ("基本时间（分钟）", "Base (minutes)"),
    "tc_inc": ("每步加时（秒）", "Increment (seconds)"),
    "tc_minutes": ("{m} 分钟", "{m} min"),
    "tc_plus": ("{m} 分钟 + {s} 秒/步", "{m} min + {s} s/move"),
    "bad_time_control": ("无效的时限：{err}", "Invalid time control: {err}"),
    # sides and status
    "red": ("红方", "Red"),
    "black": ("黑方", "Black"),
    "turn": ("{side}走棋", "{side} to move"),
    "thinking": ("{side}（电脑）思考中…", "{side} (computer) is thinking…"),
    "check": ("将军", "Check"),
    "paused": ("已暂停", "Paused"),
    "paused_suffix": ("（已暂停）", " (paused)"),
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
    "again": ("再来一局", "Rematch"),
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
    "ponder": ("后台思考", "Ponder"),
    "ponder_auto": ("自动（简单级别关闭）", "Auto (off at the easy levels)"),
    "ponder_on": ("开", "On"),
    "ponder_off": ("关", "Off"),
    "ponder_rate": ("命中 {hits}/{total}（{pct}%）", "{hits}/{total} hits ({pct}%)"),
    "book": ("使用开局库", "Opening book"),
    "book_move": ("开局库着法", "book move"),
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
    "resume_q": ("上次的棋局还没下完（{n} 步）", "Your last game is unfinished ({n} plies)"),
    "pgn_files": ("PGN 棋谱", "PGN games"),
    "all_files": ("所有文件", "All files"),
    "load_failed": ("无法读取棋局", "Could not read the game"),
    "save_failed": ("无法保存棋局", "Could not save the game"),
    "saved": ("已保存：{path}", "Saved: {path}"),
    "fen_copied": ("FEN 已复制到剪贴板", "FEN copied to the clipboard"),
    "engine_failed": ("电脑出错：{err}", "The engine failed: {err}"),
    "no_hint": ("没有可提示的着法", "No move to suggest"),
    # illegal moves: why (the status line says it)
    "not_your_piece": ("请走己方的棋子", "Move one of your own pieces"),
    "own_piece": ("不能吃自己的棋子", "You cannot capture your own piece"),
    "king_palace": ("帅（将）不能走出九宫", "The general must stay in the palace"),
    "king_step": ("帅（将）每步只能直走一格", "The general moves one point along a line"),
    "advisor_palace": ("仕（士）不能走出九宫", "The advisor must stay in the palace"),
    "advisor_step": ("仕（士）每步只能斜走一格", "The advisor moves one point diagonally"),
    "elephant_river": ("相（象）不能过河", "The elephant cannot cross the river"),
    "elephant_eye": ("象眼被塞", "The elephant's eye is blocked"),
    "elephant_step": ("相（象）走“田”字", "The elephant moves two points diagonally"),
    "horse_leg": ("马腿被绊", "The horse's leg is blocked"),
    "horse_step": ("马走“日”字", "The horse moves one point straight, then one diagonally"),
    "blocked": ("路上有棋子挡住", "A piece stands in the way"),
    "rook_line": ("车只能直走", "The chariot moves along a line"),
    "cannon_line": ("炮只能直走", "The cannon moves along a line"),
    "cannon_screen": ("炮吃子必须隔一个子（炮架）", "The cannon captures by jumping exactly one piece"),
    "pawn_back": ("兵（卒）不能后退", "The soldier never moves back"),
    "pawn_side": ("兵（卒）过河后才能横走", "The soldier moves sideways only after crossing the river"),
    "pawn_step": ("兵（卒）每步只走一格", "The soldier moves one point"),
    "bad_move": ("不能这样走", "That piece cannot move there"),
    "flying_general": ("将帅不能照面", "The generals may not face each other"),
    "in_check": ("走后被将军", "That move leaves your general in check"),
    "still_in_check": ("走后仍被将军", "You are in check: that move does not answer it"),
    "wait_computer": ("电脑思考中，请稍候", "The computer is thinking…"),
    "preselected": ("电脑思考中，已预选棋子", "The computer is thinking; piece selected"),
    # confirmations and dialogs
    "yes": ("是", "Yes"),
    "no": ("否", "No"),
    "confirm_title": ("对局还没结束", "Game in progress"),
    "confirm_new": ("当前对局还没有下完。开始新的对局会放弃它，要继续吗？",
                    "The current game is not finished. Start a new one and abandon it?"),
    "confirm_load": ("当前对局还没有下完。载入棋局会放弃它，要继续吗？",
                     "The current game is not finished. Load another and abandon it?"),
    "confirm_menu": ("当前对局还没有下完。返回主菜单时对局会暂停，可以在主菜单“继续对局”。",
                     "The current game is not finished. It waits, paused, until you continue it from the main menu."),
    "autosave_note": ("（直接退出程序时，未下完的对局会自动保存，下次启动可以继续。）",
                      "(Quitting the program keeps an unfinished game: it is saved and offered next time.)"),
    "abandon": ("放弃并继续", "Abandon it"),
    "go_menu": ("返回主菜单", "Go to the menu"),
    "continue_game": ("继续对局", "Continue the game"),
    "draw_accepted": ("电脑同意和棋", "The computer accepts the draw"),
    "draw_refused_short": ("电脑拒绝和棋：对局刚开始", "The computer declines: the game has only begun"),
    "draw_refused": ("电脑拒绝和棋", "The computer declines the draw"),
    "draw_q_computer": ("向电脑提议和棋？", "Offer the computer a draw?"),
    "resign_side_q": ("{side}认输吗？", "Does {side} resign?"),
    # records
    "record_files": ("所有棋谱", "All game records"),
    "xqf_files": ("XQF 棋谱", "XQF games"),
    "dhtmlxq_files": ("DhtmlXQ 网页棋谱", "DhtmlXQ pages"),
    "cbf_files": ("象棋桥 CBF 棋谱", "CCBridge CBF games"),
    "cbr_files": ("象棋桥 CBR 棋谱", "CCBridge CBR games"),
    "cbl_files": ("象棋桥 CBL 棋谱库（多局）", "CCBridge CBL libraries (several games)"),
    "loaded": ("已载入：{name}", "Loaded: {name}"),
    "loaded_many": ("已载入：{name}（文件里共有 {count} 局，打开的是第 1 局）",
                    "Loaded: {name} (the file holds {count} games; this is the first)"),
    "err_not_record": ("这不是能识别的棋谱文件", "This is not a game record this program can read"),
    "err_xqf": ("XQF 棋谱已损坏或无法识别", "The XQF file is damaged or of an unknown kind"),
    "err_dhtmlxq": ("DhtmlXQ 棋谱有错误", "The DhtmlXQ record has an error"),
    "err_pgn": ("PGN 棋谱有错误", "The PGN record has an error"),
    "err_illegal": ("棋谱里有不合规则的着法", "The record holds an illegal move"),
    "err_fen": ("无效的 FEN", "Invalid FEN"),
    "err_missing": ("找不到文件", "The file does not exist"),
    "err_permission": ("没有读写这个文件的权限", "No permission to use this file"),
    "err_os": ("文件读写出错", "The file could not be read or written"),
    "err_encoding": ("无法识别文件的文字编码", "The text encoding of the file is unknown"),
    "err_engine": ("引擎出错", "The engine failed"),
    "err_value": ("输入有误", "Bad input"),
    "err_no_external": ("还没有设置外部引擎（电脑 → 外部引擎…）", "No external engine is set (Computer → External engine…)"),
    "detail": ("详情：{detail}", "Details: {detail}"),
    # status messages
    "fen_pasted": ("已从剪贴板载入局面", "Position pasted from the clipboard"),
    "pgn_copied": ("棋谱（PGN）已复制到剪贴板", "Game (PGN) copied to the clipboard"),
    "exported": ("已导出：{path}", "Exported: {path}"),
    "copy_pgn": ("复制棋谱（PGN）", "Copy game (PGN)"),
    "export_svg": ("导出图片（SVG）…", "Export picture (SVG)…"),
    "export_png": ("导出图片（PNG）…", "Export picture (PNG)…"),
    "svg_files": ("SVG 图片", "SVG pictures"),
    "png_files": ("PNG 图片", "PNG pictures"),
    "export_failed": ("无法导出图片", "Could not export the picture"),
    "png_unavailable": ("这台电脑上无法截取棋盘图像，请导出 SVG", "The board cannot be captured here: export SVG instead"),
    # review and analysis
    "review_keys": ("←/→ 逐步，Home/End 开头/结尾", "←/→ step, Home/End start/end"),
    "analysis": ("分析模式", "Analysis mode"),
    "analysing": ("分析中（{side}走）", "Analysing ({side} to move)"),
    "played": ("电脑走", "Played"),
    "chosen_weaker": ("按难度有意选择；最佳着法：{best}", "chosen on purpose at this level; best was {best}"),
    "graph": ("形势", "Evaluation"),
    # new game dialog
    "computer_level": ("{side}电脑难度", "{side} computer level"),
    "ext_setup": ("外部引擎…", "External engine…"),
    # position editor
    "editor": ("摆棋（局面编辑）", "Set up a position"),
    "ed_title": ("摆棋", "Set up a position"),
    "ed_help": ("把右侧的棋子拖到棋盘上；棋盘上的棋子可拖动，拖出棋盘或右键点击即删除。",
                "Drag pieces from the palette onto the board; drag them around, drag one off the board or right-click it to remove it."),
    "ed_clear": ("清空棋盘", "Clear"),
    "ed_initial": ("初始局面", "Start position"),
    "ed_to_move": ("先走方", "To move"),
    "ed_play": ("从此局面对弈", "Play from here"),
    "ed_analyse": ("分析此局面", "Analyse it"),
    "ed_ok": ("局面合规", "The position is legal"),
    "ed_bad": ("这个局面不合规则", "This position is not legal"),
    "ed_no_moves": ("先走的一方无棋可走，对局已经结束", "The side to move has no legal move: the game would be over"),
}


def tr(key: str, lang: str = "zh", **fields: object) -> str:
    """The label `key` in `lang` ("zh" or "en"), with {fields} filled in;
    an unknown key is returned as it is, so a missing label shows, never crashes."""
    pair = TEXT.get(key)
    if pair is None:
        return key
    text = pair[1] if lang == "en" else pair[0]
    return text.format(**fields) if fields else text


# --- errors: the kind in the player's language, the detail kept ------------------

def error_kind(exc: BaseException) -> str:
    """The i18n key naming what kind of error `exc` is."""
    from cxiangqi import IllegalMoveError, InvalidFenError
    from cxiangqi.pgn import PgnError
    name = type(exc).__name__
    kind = getattr(exc, "kind", None)
    if isinstance(kind, str) and kind in TEXT:
        return kind
    if isinstance(exc, FileNotFoundError):
        return "err_missing"
    if isinstance(exc, PermissionError):
        return "err_permission"
    if isinstance(exc, UnicodeError):
        return "err_encoding"
    if isinstance(exc, OSError):
        return "err_os"
    if isinstance(exc, InvalidFenError):
        return "err_fen"
    if isinstance(exc, IllegalMoveError):
        return "err_illegal"
    if name == "XqfError":
        return "err_xqf"
    if name == "DhtmlXQError":
        return "err_dhtmlxq"
    if isinstance(exc, PgnError):
        return "err_pgn"
    if "Engine" in name:
        return "err_engine"
    return "err_value"


def error_detail(exc: BaseException, limit: int = 240) -> str:
    """The exception's own words, made safe to show: no control characters
    or binary junk, no repeated FEN prefix, at most `limit` characters."""
    text = str(exc) or type(exc).__name__
    if isinstance(exc, OSError) and exc.strerror:
        text = exc.strerror + (f": {exc.filename}" if exc.filename else "")
    # "invalid FEN '...': impossible position: the red king is missing" -> the reason
    if text.startswith("invalid FEN '") and "': " in text:
        text = text.split("': ", 1)[1]
    clean = "".join(ch if ch.isprintable() and ch != "\ufffd" else " " for ch in text)
    clean = " ".join(clean.split())
    return clean if len(clean) <= limit else clean[:limit - 1] + "…"


def error_text(exc: BaseException, lang: str = "zh") -> str:
    """'无效的 FEN\\n详情：the red king is missing' — the kind translated, the detail kept."""
    return f"{tr(error_kind(exc), lang)}\n{tr('detail', lang, detail=error_detail(exc))}"


# --- line breaking that follows the rules of Chinese typesetting ------------------

# never at the start of a line (closing punctuation) / never at its end (opening)
NO_START = set("，。、；：？！）》」』”’〉】…—·%,.;:!?)]}") | {"\u3001"}
NO_END = set("（《「『“‘〈【([{")


def _is_wide(ch: str) -> bool:
    """A character that forms a unit of its own (CJK ideographs and punctuation)."""
    return ord(ch) >= 0x2000 and ch not in "’'"


def _units(text: str) -> List[Tuple[str, bool]]:
    """Unbreakable pieces of `text` with 'a space came before' flags: a Latin
    word or a number is one piece, each CJK character another; closing
    punctuation sticks to what precedes it, opening punctuation to what
    follows; '\\n' is a forced break."""
    atoms: List[Tuple[str, bool]] = []
    i, space = 0, False
    while i < len(text):
        ch = text[i]
        if ch == "\n":
            atoms.append(("\n", False))
            i, space = i + 1, False
            continue
        if ch.isspace():
            i, space = i + 1, True
            continue
        if _is_wide(ch):
            j = i + 1
        else:
            j = i
            while j < len(text) and not text[j].isspace() and not _is_wide(text[j]):
                j += 1
        atoms.append((text[i:j], space))
        i, space = j, False
    units: List[List[Any]] = []
    glue_next = False
    for piece, space in atoms:
        if piece == "\n":
            units.append(["\n", False])
            glue_next = False
            continue
        prev = units[-1] if units and units[-1][0] != "\n" else None
        # a number stays with the unit after it: "1956 年", "120 步"
        number_unit = prev is not None and prev[0][-1].isdigit() and _is_wide(piece[0])
        closing = piece[0] in NO_START and (not space or piece[0] in "—…")
        if prev is not None and (glue_next or number_unit or closing):
            prev[0] += (" " if space else "") + piece
        else:
            units.append([piece, space])
        glue_next = piece[-1] in NO_END
    return [(u[0], u[1]) for u in units]


def break_lines(text: str, width: float, measure: Callable[[str], float]) -> List[str]:
    """`text` broken into lines no wider than `width` (as `measure` counts),
    breaking between CJK characters and at spaces, never before closing
    punctuation, never after opening punctuation, never inside a number or
    a word (unless it alone is wider than a line).

    >>> break_lines("六十回合（120 步）没有吃子。", 7, len)
    ['六十回合', '（120 步）', '没有吃子。']
    >>> break_lines("1956 年中国举办", 5, len)
    ['1956 年', '中国举办']
    """
    lines: List[str] = []
    cur = ""
    for piece, space in _units(text):
        if piece == "\n":
            lines.append(cur)
            cur = ""
            continue
        cand = cur + (" " if space and cur else "") + piece
        if not cur or measure(cand) <= width:
            cur = cand
            continue
        lines.append(cur)
        cur = piece
        while measure(cur) > width and len(cur) > 1:
            # one piece wider than the line: cut it where it must be cut
            k = len(cur) - 1
            while k > 1 and measure(cur[:k]) > width:
                k -= 1
            lines.append(cur[:k])
            cur = cur[k:]
    lines.append(cur)
    return [line.rstrip() for line in lines]
