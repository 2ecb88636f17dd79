"""A picture of a widget as the screen shows it, written as PNG with the
standard library only (Tk has no way to render a canvas to an image).

On X11 the pixels are read from the X server with XGetImage (libX11, which
Tk itself uses, through ctypes); elsewhere grab_png raises RuntimeError and
the game offers SVG instead.  The PNG encoder is the format's minimum:
8-bit RGB, one IDAT chunk, no filtering.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import struct
import zlib
from pathlib import Path
from typing import Any, Union

ZPIXMAP = 2
ALL_PLANES = 0xFFFFFFFF


class _XImage(ctypes.Structure):
    _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int), ("xoffset", ctypes.c_int),
                ("format", ctypes.c_int), ("data", ctypes.c_void_p), ("byte_order", ctypes.c_int),
                ("bitmap_unit", ctypes.c_int), ("bitmap_bit_order", ctypes.c_int),
                ("bitmap_pad", ctypes.c_int), ("depth", ctypes.c_int),
                ("bytes_per_line", ctypes.c_int), ("bits_per_pixel", ctypes.c_int),
                ("red_mask", ctypes.c_ulong), ("green_mask", ctypes.c_ulong),
                ("blue_mask", ctypes.c_ulong)]


def png_bytes(width: int, height: int, rgb: bytes) -> bytes:
    """An 8-bit RGB PNG of `rgb` (width * height * 3 bytes, rows top down)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    stride = width * 3
    raw = b"".join(b"\x00" + rgb[y * stride:(y + 1) * stride] for y in range(height))
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def grab_rgb(widget: Any) -> tuple:
    """(width, height, rgb bytes) of what `widget` shows on an X11 screen."""
    if widget.tk.call("tk", "windowingsystem") != "x11":
        raise RuntimeError("reading the screen works on X11 only")
    name = ctypes.util.find_library("X11")
    if not name:
        raise RuntimeError("libX11 not found")
    x11 = ctypes.cdll.LoadLibrary(name)
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XGetImage.restype = ctypes.POINTER(_XImage)
    x11.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int,
                              ctypes.c_uint, ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
    x11.XDestroyImage.argtypes = [ctypes.POINTER(_XImage)]
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    display = x11.XOpenDisplay(widget.winfo_screen().encode())
    if not display:
        raise RuntimeError(f"cannot open the display {widget.winfo_screen()}")
    try:
        w, h = widget.winfo_width(), widget.winfo_height()
        image = x11.XGetImage(display, widget.winfo_id(), 0, 0, w, h, ALL_PLANES, ZPIXMAP)
        if not image:
            raise RuntimeError("the window cannot be read (is it visible?)")
        try:
            img = image.contents
            if img.bits_per_pixel != 32 or img.red_mask != 0xFF0000 or img.blue_mask != 0xFF:
                raise RuntimeError(f"unsupported screen format ({img.bits_per_pixel} bits per pixel)")
            data = ctypes.string_at(img.data, img.bytes_per_line * h)
            rgb = bytearray(w * h * 3)
            for y in range(h):
                row = data[y * img.bytes_per_line:y * img.bytes_per_line + 4 * w]
                out = memoryview(rgb)[y * w * 3:(y + 1) * w * 3]
                if img.byte_order == 0:         # LSBFirst: B G R X
                    out[0::3], out[1::3], out[2::3] = row[2::4], row[1::4], row[0::4]
                else:                           # MSBFirst: X R G B
                    out[0::3], out[1::3], out[2::3] = row[1::4], row[2::4], row[3::4]
            return w, h, bytes(rgb)
        finally:
            x11.XDestroyImage(image)
    finally:
        x11.XCloseDisplay(display)


def grab_png(widget: Any, path: Union[str, Path]) -> None:
    """Writes what `widget` shows as a PNG file."""
    w, h, rgb = grab_rgb(widget)
    Path(path).write_bytes(png_bytes(w, h, rgb))
