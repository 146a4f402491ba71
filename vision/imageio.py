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

import math
import re
import struct
from dataclasses import dataclass
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from vision.errors import ImageError

__all__ = ["ImageHeader", "decoded_size", "finest", "header_info", "load_image", "load_photo", "preview", "reduction",
           "MAX_BYTES", "MAX_PIXELS", "MAX_PHOTO_PIXELS", "WORK_MIN_SIDE"]

MAX_BYTES = 25 * 1024 * 1024
MAX_PIXELS = 40_000_000
"""The most pixels decoded from one image."""
MAX_PHOTO_PIXELS = 200_000_000
"""The most pixels a JPEG photo may have where it is decoded smaller (:func:`load_photo`): its DCT scaled, a 50 MP phone
photo (8160×6120) is decoded at a quarter of its sides, never whole, and a 200 MP one (16320×12240) at an eighth.
What is decoded stays under :data:`MAX_PIXELS`; a PNG, decoded whole before it is made smaller, is held to that."""
WORK_MIN_SIDE = 1600
"""A photo is read at the smallest of 1/1, 1/2, 1/4 or 1/8 of its size whose long side is still this many pixels
(:func:`load_photo`): a phone's 12 MP photo (4032×3024) at 2016×1512, where a rack's tiles are still 80 px or more
across while the models look at 48 px.  A JPEG is decoded at that size directly (its DCT scaled), which takes a
fraction of a full decode."""
_REDUCED_FLAGS = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
                  8: cv2.IMREAD_REDUCED_COLOR_8}

_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
_JPEG_MAGIC = b"\xff\xd8"
_MARKER = re.compile(rb"\xff[^\x00\xd0-\xd7\xff]")
"""A marker in a JPEG's scan data: 0xFF followed by anything but a stuffed 0x00, a restart marker or a fill byte."""
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


def _jpeg_end(data: bytes) -> int | None:
    """Where the JPEG ends: just past its end marker (EOI), found by walking its segments and scans (a scan's data runs
    to the next marker: a 0xFF in it is followed by 0x00 or a restart marker); None where the data stops before it (a
    truncated file).  Not always the file's end: a phone's motion photo (Samsung, Google Pixel) carries its video
    after the JPEG.  Where the segments cannot be walked (bytes between them that libjpeg skips with a warning), the
    last end marker in the file.

    >>> scan = b"\\xff\\xd8\\xff\\xda\\x00\\x02s\\xff\\x00c\\xff\\xd0an"
    >>> _jpeg_end(scan + b"\\xff\\xd9" + bytes(5000)), _jpeg_end(scan), _jpeg_end(b"\\xff\\xd8junk\\xff\\xd9")
    (16, None, 8)
    >>> _jpeg_end(scan + b"\\xff\\xfe\\x00\\x04\\xff\\xd9" + scan[2:] + b"\\xff\\xd9")   # an end marker in a comment
    34
    """
    pos = 2
    while pos + 2 <= len(data) and data[pos] == 0xFF:
        marker = data[pos + 1]
        if marker == 0xFF:  # a fill byte before a marker
            pos += 1
            continue
        if marker == 0xD9:
            return pos + 2
        if pos + 4 > len(data):
            return None
        (length,) = struct.unpack(">H", data[pos + 2 : pos + 4])
        pos += 2 + length
        if marker == 0xDA:
            after = _MARKER.search(data, pos)
            if after is None:
                return None
            pos = after.start()
    if pos + 2 <= len(data):  # not a marker where one should start: no telling where the scans run
        last = data.rfind(b"\xff\xd9")
        return None if last < 0 else last + 2
    return None


def without_trailer(data: bytes) -> bytes:
    """The upload without what a phone adds after its JPEG (a motion photo's video: megabytes the photo page would
    send back and keep for nothing); anything else as it is.

    >>> photo = b"\\xff\\xd8\\xff\\xda\\x00\\x02scan\\xff\\xd9"
    >>> without_trailer(photo + b"MotionPhoto_Data...") == photo, without_trailer(b"text") == b"text"
    (True, True)
    """
    end = _jpeg_end(data) if data.startswith(_JPEG_MAGIC) else None
    return data if end is None else data[:end]


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


def reduction(width: int, height: int, min_side: int = WORK_MIN_SIDE) -> int:
    """The factor (1, 2, 4 or 8) a photo of ``width`` × ``height`` is read at: the largest that keeps its long side at
    least ``min_side`` (:data:`WORK_MIN_SIDE`) and its short side at least a pixel (a strip 1 px high read at half
    its size would have none: OpenCV's decoder fails on it).

    >>> reduction(4032, 3024), reduction(3000, 4000), reduction(1000, 750), reduction(3199, 2000), reduction(7000, 5000)
    (2, 2, 1, 1, 4)
    >>> reduction(5000, 1), reduction(5000, 2), reduction(20000, 5)
    (1, 2, 4)
    """
    factor = 1
    while factor < 8 and max(width, height) >= 2 * factor * min_side and min(width, height) >= 2 * factor:
        factor *= 2
    return factor


def decoded_size(width: int, height: int, factor: int) -> tuple[int, int]:
    """The width and height of a ``width`` × ``height`` photo read at 1 / ``factor`` of its sides: rounded up, as
    libjpeg's scaled decoding gives them.

    >>> decoded_size(4032, 3024, 2), decoded_size(8161, 6121, 4)
    ((2016, 1512), (2041, 1531))
    """
    return -(-width // factor), -(-height // factor)


def _smaller(image: np.ndarray, factor: int) -> np.ndarray:
    """An array photo at 1 / ``factor`` of its sides (:func:`decoded_size`), as a JPEG would be decoded so."""
    if factor == 1:
        return image
    height, width = image.shape[:2]
    return cv2.resize(image, decoded_size(width, height, factor), interpolation=cv2.INTER_AREA)


def finest(width: int, height: int) -> int:
    """The factor (1, 2, 4 or 8) a photo of ``width`` × ``height`` is decoded at to show all it can within
    :data:`MAX_PIXELS`: 1 up to 40 MP, 2 for a 50 MP phone photo (decoded 4080×3060).

    >>> finest(4032, 3024), finest(8160, 6120), finest(16320, 12240)
    (1, 2, 4)
    """
    factor = 1
    while factor < 8 and math.prod(decoded_size(width, height, factor)) > MAX_PIXELS:
        factor *= 2
    return factor


def load_photo(source: bytes | str | Path | np.ndarray, min_side: int = WORK_MIN_SIDE) -> tuple[np.ndarray, int, int]:
    """The photo to read, EXIF-corrected, at the size :func:`reduction` picks, and the width and height of the whole
    (EXIF-corrected) photo, whose pixels boxes found on the smaller one are to be given in.

    >>> pixels, width, height = load_photo(np.zeros((3024, 4032, 3), np.uint8))
    >>> pixels.shape, width, height
    ((1512, 2016, 3), 4032, 3024)
    """
    if isinstance(source, np.ndarray):
        image = _check_array(source)
        height, width = image.shape[:2]
        return _smaller(image, reduction(width, height, min_side)), width, height
    image, header = _decode(source, lambda header: reduction(header.width, header.height, min_side))
    turned = header.orientation in (5, 6, 7, 8)
    return image, header.height if turned else header.width, header.width if turned else header.height


def preview(data: bytes, min_side: int = WORK_MIN_SIDE, quality: int = 85, pixels: np.ndarray | None = None) -> bytes | None:
    """A JPEG of the photo ``data`` as it is read: upright and at the working size of :func:`load_photo`, to show
    under the boxes found (a phone's 12 MP photo sent back as 2016×1512 in about a tenth of the bytes), or None where
    the upload itself shows the same (small enough, no EXIF turn).  Raises :class:`ImageError` like :func:`load_image`.
    ``pixels``: the photo as the recogniser read it (``Recognition.photo``), used instead of decoding ``data`` again
    where it is at most the working size (a recogniser made with ``reduce=False`` read it whole).

    >>> import cv2; photo = cv2.imencode(".jpg", np.full((3300, 4000, 3), 200, np.uint8))[1].tobytes()
    >>> cv2.imdecode(np.frombuffer(preview(photo), np.uint8), cv2.IMREAD_COLOR).shape
    (1650, 2000, 3)
    >>> preview(cv2.imencode(".jpg", np.full((750, 1000, 3), 200, np.uint8))[1].tobytes()) is None
    True
    """
    header = header_info(data)
    if reduction(header.width, header.height, min_side) == 1 and header.orientation == 1:
        return None
    if pixels is None or max(pixels.shape[:2]) >= 2 * min_side:
        pixels, _, _ = load_photo(data, min_side)
    ok, encoded = cv2.imencode(".jpg", pixels, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:  # pragma: no cover - OpenCV encodes any decoded BGR image
        raise ImageError("the photo could not be encoded again; send a smaller photo")
    return encoded.tobytes()


def load_image(source: bytes | str | Path | np.ndarray, factor: int = 1) -> np.ndarray:
    """A BGR ``uint8`` image, EXIF-corrected, from bytes, a path or an array (taken as BGR or grey); at 1 / ``factor``
    (1, 2, 4 or 8) of its sides where given (:func:`finest`: a JPEG over :data:`MAX_PIXELS` decoded smaller)."""
    if isinstance(source, np.ndarray):
        return _smaller(_check_array(source), factor)
    return _decode(source, lambda header: factor)[0]


def _decode(source: bytes | str | Path, factor_of: Callable[[ImageHeader], int]) -> tuple[np.ndarray, ImageHeader]:
    """The upload's pixels, checked and EXIF-corrected, decoded at 1 / ``factor_of(header)`` of their size."""
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
    factor = factor_of(header)
    scaled = factor if header.format == "jpeg" else 1  # a JPEG is decoded smaller; a PNG whole, then made smaller
    most = MAX_PHOTO_PIXELS if scaled > 1 else MAX_PIXELS
    if header.width * header.height > most or math.prod(decoded_size(header.width, header.height, scaled)) > MAX_PIXELS:
        raise ImageError(
            f"image too large: {header.width}×{header.height} (max {most // 1_000_000} MP); send a smaller photo"
        )
    if header.width == 0 or header.height == 0:
        raise ImageError(f"not an image: the header says {header.width}×{header.height} pixels")
    flags = _REDUCED_FLAGS[factor] | cv2.IMREAD_IGNORE_ORIENTATION
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    except cv2.error:  # a decoder's own assertion on data its header check let through: not a photo to read
        image = None
    if image is None:
        raise ImageError(
            f"not an image: the {header.format.upper()} data could not be decoded (truncated or corrupt); send the original photo file"
        )
    # A file that ends with an end marker is whole (no scan's data holds one): the walk through it is left out.
    if header.format == "jpeg" and not data.endswith(b"\xff\xd9") and _jpeg_end(data) is None:
        raise ImageError("not an image: truncated JPEG (the end of the file is missing); send the whole photo file")
    return _apply_orientation(image, header.orientation), header


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
