"""A camera attached to the host (a laptop's webcam, a Raspberry Pi camera): one frame as JPEG bytes.

The frame goes to :meth:`vision.Recognizer.recognize` exactly like an uploaded photo.  OpenCV's
``VideoCapture`` opens the device; a few frames are read so the camera can settle its exposure, and the
last good one is kept.  No camera, or one that sends no picture in time, raises :class:`CameraError`.

>>> capture_jpeg(-1)
Traceback (most recent call last):
...
vision.camera.CameraError: invalid camera device -1: use 0 for the first camera, 1 for the second …
"""

from __future__ import annotations

import time
from typing import Any

SETTLE_FRAMES = 5
"""Frames read before the one kept: a webcam's first frames are often dark or blurred."""

JPEG_QUALITY = 92


class CameraError(ValueError):
    """No camera at the device, or no picture from it in time."""


def _open(device: int) -> Any:
    import cv2

    return cv2.VideoCapture(device)


def _encode(frame: Any) -> bytes:
    import cv2

    ok, encoded = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise CameraError("the camera's picture could not be encoded as JPEG: try again")
    return bytes(encoded.tobytes())


def capture_jpeg(device: int = 0, *, timeout_s: float = 3.0) -> bytes:
    """One settled frame from camera ``device`` (0 = the first camera) as JPEG bytes.

    Raises :class:`CameraError` when no camera answers at ``device`` or none of its frames arrives
    within ``timeout_s`` seconds.
    """
    if isinstance(device, bool) or not isinstance(device, int) or device < 0:
        raise CameraError(f"invalid camera device {device!r}: use 0 for the first camera, 1 for the second …")
    if timeout_s <= 0:
        raise CameraError(f"invalid camera timeout {timeout_s!r}: give a number of seconds above 0, e.g. 3")
    capture = _open(device)
    try:
        if not capture.isOpened():
            raise CameraError(f"no camera at device {device}: plug one in, or take the photo with a phone")
        deadline = time.monotonic() + timeout_s
        frame = None
        good = 0
        while good <= SETTLE_FRAMES and time.monotonic() < deadline:
            ok, image = capture.read()
            if ok and image is not None and getattr(image, "size", 0):
                frame, good = image, good + 1
            else:
                time.sleep(0.02)
        if frame is None:
            raise CameraError(f"camera {device} sent no picture within {timeout_s} s: check that no other "
                              "program is using it, then try again")
        return _encode(frame)
    finally:
        capture.release()
