"""Loading uploads safely: size limits, header checks before decoding, EXIF orientation.

Only JPEG and PNG are accepted.  The dimensions are read from the header first, so a small file that
claims 20000×20000 pixels is refused before a byte of it is decoded:

>>> png_header = b"\\x89PNG\\r\\n\\x1a\\n" + b"\\x00\\x00\\x00\\rIHDR" + (20000).to_bytes(4, "big") * 2
>>> header_info(png_header)
ImageHeader(format='png', width=20000, height=20000, orientation=1)
>>> load_image(png_header)
Traceback (most recent call last):
...
vision.errors.ImageError: image too large: 20000×20000 (max 40 MP); send a smaller photo
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.errors import ImageError

__all__ = ["ImageHeader", "header_info", "load_image", "MAX_BYTES", "MAX_PIXELS"]

MAX_BYTES = 25 * 1024 * 1024
MAX_PIXELS = 40_000_000

_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
_JPEG_MAGIC = b"\xff\xd8"
# Start-of-frame markers carry the dimensions; C4 (DHT), C8 (JPG) and CC (DAC) are not frames.
_SOF_MARKERS = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


@dataclass(frozen=True)
class ImageHeader:
    """What the header says: format, stored size and the EXIF orientation (1 = upright)."""

    format: str
    width: int
    height: int
    orientation: int


def _exif_orientation(app1: bytes) -> int:
    """The orientation tag (0x0112) of an APP1 Exif payload, 1 when absent or unreadable."""
    if not app1.startswith(b"Exif\x00\x00") or len(app1) < 14:
        return 1
    tiff = app1[6:]
    endian = {b"II": "<", b"MM": ">"}.get(tiff[:2])
    if endian is None:
        return 1
    (ifd_offset,) = struct.unpack(endian + "I", tiff[4:8])
    if ifd_offset + 2 > len(tiff):
        return 1
    (count,) = struct.unpack(endian + "H", tiff[ifd_offset : ifd_offset + 2])
    for i in range(count):
        entry = tiff[ifd_offset + 2 + 12 * i : ifd_offset + 14 + 12 * i]
        if len(entry) < 12:
            break
        tag, kind = struct.unpack(endian + "HH", entry[:4])
        if tag == 0x0112 and kind == 3:
            (value,) = struct.unpack(endian + "H", entry[8:10])
            return value if 1 <= value <= 8 else 1
    return 1


def _jpeg_header(data: bytes) -> ImageHeader:
    orientation, pos = 1, 2
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            raise ImageError("not an image: corrupt JPEG header; send the original photo file")
        marker = data[pos + 1]
        if marker == 0xFF:
            pos += 1
            continue
        (length,) = struct.unpack(">H", data[pos + 2 : pos + 4])
        segment = data[pos + 4 : pos + 2 + length]
        if marker == 0xE1:
            orientation = _exif_orientation(segment)
        elif marker in _SOF_MARKERS and len(segment) >= 5:
            height, width = struct.unpack(">HH", segment[1:5])
            return ImageHeader("jpeg", width, height, orientation)
        pos += 2 + length
    raise ImageError("not an image: truncated JPEG (no frame header); send the whole photo file")


def header_info(data: bytes) -> ImageHeader:
    """Format, dimensions and EXIF orientation read from the first bytes, without decoding pixels."""
    if data.startswith(_PNG_MAGIC):
        if len(data) < 24 or data[12:16] != b"IHDR":
            raise ImageError("not an image: truncated PNG header; send the whole photo file")
        width, height = struct.unpack(">II", data[16:24])
        return ImageHeader("png", width, height, 1)
    if data.startswith(_JPEG_MAGIC):
        return _jpeg_header(data)
    raise ImageError(f"not an image: {data[:16]!r}… is neither JPEG nor PNG; send a JPEG or PNG photo")


def _apply_orientation(image: np.ndarray, orientation: int) -> np.ndarray:
    """Turn stored pixels upright following EXIF orientation values 1-8."""
    if orientation in (5, 6, 7, 8):
        image = cv2.transpose(image)
        orientation = {5: 1, 6: 2, 7: 3, 8: 4}[orientation]
    if orientation == 2:
        return cv2.flip(image, 1)
    if orientation == 3:
        return cv2.flip(image, -1)
    if orientation == 4:
        return cv2.flip(image, 0)
    return image


def load_image(source: bytes | str | Path | np.ndarray) -> np.ndarray:
    """A BGR ``uint8`` image, EXIF-corrected, from bytes, a path or an array (taken as BGR or grey)."""
    if isinstance(source, np.ndarray):
        return _check_array(source)
    if isinstance(source, (str, Path)):
        path = Path(source)
        if not path.is_file():
            raise ImageError(f"not an image: no file at {str(path)!r}")
        if path.stat().st_size > MAX_BYTES:
            raise ImageError(f"image file too large: {path.stat().st_size} bytes (max {MAX_BYTES})")
        source = path.read_bytes()
    if not isinstance(source, (bytes, bytearray, memoryview)):
        raise ImageError(f"not an image: cannot read a {type(source).__name__!r}; pass bytes, a path or an array")
    data = bytes(source)
    if not data:
        raise ImageError("not an image: the upload is empty; choose a photo file")
    if len(data) > MAX_BYTES:
        raise ImageError(f"image file too large: {len(data)} bytes (max {MAX_BYTES}); send a smaller photo")
    header = header_info(data)
    if header.width * header.height > MAX_PIXELS:
        raise ImageError(
            f"image too large: {header.width}×{header.height} (max {MAX_PIXELS // 1_000_000} MP); send a smaller photo"
        )
    if header.width == 0 or header.height == 0:
        raise ImageError(f"not an image: the header says {header.width}×{header.height} pixels")
    flags = cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION
    image = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    if image is None:
        raise ImageError(
            f"not an image: the {header.format.upper()} data could not be decoded (truncated or corrupt); send the original photo file"
        )
    if header.format == "jpeg" and b"\xff\xd9" not in data[-1024:]:
        raise ImageError("not an image: truncated JPEG (the end of the file is missing); send the whole photo file")
    return _apply_orientation(image, header.orientation)


def _check_array(image: np.ndarray) -> np.ndarray:
    if image.dtype != np.uint8 or image.ndim not in (2, 3) or (image.ndim == 3 and image.shape[2] not in (3, 4)):
        raise ImageError(f"not an image: array of shape {image.shape} and dtype {image.dtype}; expected HxWx3 uint8 BGR")
    if image.shape[0] * image.shape[1] > MAX_PIXELS:
        raise ImageError(f"image too large: {image.shape[1]}×{image.shape[0]} (max {MAX_PIXELS // 1_000_000} MP)")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    return image
