"""A camera attached to the host (a laptop's webcam, a Raspberry Pi camera): one frame as JPEG bytes.

The frame goes to :meth:`vision.Recognizer.recognize` exactly like an uploaded photo.  Two kinds of
camera, chosen by ``okey-companion serve --camera``:

- ``picamera2`` — a Raspberry Pi camera module (CSI ribbon) through the picamera2 library, which comes
  from the system's packages (``apt install python3-picamera2``) and is imported only when it is there;
- ``0``, ``1`` … or ``/dev/video0`` — a USB webcam (or a laptop's) through OpenCV's ``VideoCapture``;
- ``auto`` (the default) — the Pi camera when picamera2 is installed and sees one, else OpenCV's camera 0.

A few frames are read (OpenCV) or a moment is waited (picamera2) so the camera can settle its exposure.
No camera, or one that sends no picture in time, raises :class:`CameraError`.

>>> capture_jpeg(-1)
Traceback (most recent call last):
...
vision.camera.CameraError: invalid camera device -1: use 0 for the first camera, 1 for the second …
>>> parse_camera("1"), parse_camera("/dev/video2"), parse_camera(" PiCamera2 "), parse_camera("auto")
(1, '/dev/video2', 'picamera2', 'auto')
>>> parse_camera("front")
Traceback (most recent call last):
...
vision.camera.CameraError: invalid camera 'front': use auto, picamera2 (a Raspberry Pi camera module), a number such as 0 for a USB camera, or a device path such as /dev/video0
"""

from __future__ import annotations

import importlib
import importlib.util
import threading
import time
from typing import Any

SETTLE_FRAMES = 5
"""Frames read before the one kept: a webcam's first frames are often dark or blurred."""

JPEG_QUALITY = 92

PICAMERA_SETTLE_S = 1.0
"""How long the Pi camera runs before the frame is taken: its automatic exposure and white balance settle."""

PICAMERA_LONG_SIDE = 2048
"""The Pi camera's frame is taken at the sensor's aspect with this long side (the recogniser needs no more)."""

CameraSpec = int | str
"""What :func:`parse_camera` returns: an OpenCV index, a device path, ``"picamera2"`` or ``"auto"``."""

_PI_CAMERA_LOCK = threading.Lock()  # picamera2 opens a camera once at a time


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


def _capture_opencv(capture: Any, device: int | str, timeout_s: float) -> bytes:
    """A settled frame from an opened ``cv2.VideoCapture`` as JPEG; releases it."""
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


def capture_jpeg(device: int = 0, *, timeout_s: float = 3.0) -> bytes:
    """One settled frame from camera ``device`` (0 = the first camera) as JPEG bytes.

    Raises :class:`CameraError` when no camera answers at ``device`` or none of its frames arrives
    within ``timeout_s`` seconds.
    """
    if isinstance(device, bool) or not isinstance(device, int) or device < 0:
        raise CameraError(f"invalid camera device {device!r}: use 0 for the first camera, 1 for the second …")
    if timeout_s <= 0:
        raise CameraError(f"invalid camera timeout {timeout_s!r}: give a number of seconds above 0, e.g. 3")
    return _capture_opencv(_open(device), device, timeout_s)


# ---------------------------------------------------------------------------------------------------------
# Choosing the camera: ``--camera auto|picamera2|N|/dev/videoN``.


def parse_camera(text: str | int) -> CameraSpec:
    """The camera a ``--camera`` value names, or :class:`CameraError` saying what to write instead."""
    if isinstance(text, bool):
        raise CameraError(f"invalid camera {text!r}: use auto, picamera2, or a number such as 0")
    if isinstance(text, int):
        if text < 0:
            raise CameraError(f"invalid camera device {text}: use 0 for the first camera, 1 for the second …")
        return text
    value = str(text).strip()
    if value.lower() in {"auto", "picamera2"}:
        return value.lower()
    if value.isdigit():
        return int(value)
    if value.startswith("/dev/"):
        return value
    raise CameraError(f"invalid camera {text!r}: use auto, picamera2 (a Raspberry Pi camera module), a number such "
                      "as 0 for a USB camera, or a device path such as /dev/video0")


def _picamera2_class() -> Any | None:
    """picamera2's ``Picamera2`` class when the library is installed (Raspberry Pi OS), else ``None``."""
    if importlib.util.find_spec("picamera2") is None:
        return None
    try:
        return importlib.import_module("picamera2").Picamera2
    except Exception:  # noqa: BLE001 — a broken system install (e.g. numpy mismatch) is "no Pi camera"
        return None


def pi_camera_present() -> bool:
    """Whether picamera2 is installed and sees a camera module."""
    picamera2 = _picamera2_class()
    if picamera2 is None:
        return False
    try:
        return bool(picamera2.global_camera_info())
    except Exception:  # noqa: BLE001 — libcamera errors mean no usable camera
        return False


def describe(camera: str | int) -> str:
    """Which camera ``--camera`` picks on this machine, in words (for the start-up banner)."""
    spec = parse_camera(camera)
    if spec == "auto":
        return "Raspberry Pi camera (picamera2)" if pi_camera_present() else "camera 0 (OpenCV)"
    if spec == "picamera2":
        return "Raspberry Pi camera (picamera2)"
    return f"camera {spec} (OpenCV)"


def _open_path(path: str) -> Any:
    import cv2

    return cv2.VideoCapture(path)


def capture_picamera2(*, settle_s: float = PICAMERA_SETTLE_S) -> bytes:
    """One frame from the Raspberry Pi camera module as JPEG bytes (picamera2)."""
    picamera2 = _picamera2_class()
    if picamera2 is None:
        raise CameraError("picamera2 is not installed: on Raspberry Pi OS run 'sudo apt install python3-picamera2' "
                          "and create the virtual environment with --system-site-packages")
    with _PI_CAMERA_LOCK:
        try:
            if not picamera2.global_camera_info():
                raise CameraError("no Raspberry Pi camera found: check the ribbon cable, or use --camera 0 for a USB one")
            camera = picamera2()
        except CameraError:
            raise
        except Exception as error:  # noqa: BLE001 — libcamera reports a busy or missing camera this way
            raise CameraError(f"the Raspberry Pi camera could not be opened ({error}): is another program using it?") from None
        try:
            width, height = camera.sensor_resolution
            scale = min(1.0, PICAMERA_LONG_SIDE / max(width, height))
            size = (int(width * scale) // 2 * 2, int(height * scale) // 2 * 2)
            # libcamera's "RGB888" lays pixels out as B, G, R: what OpenCV expects.
            camera.configure(camera.create_still_configuration(main={"size": size, "format": "RGB888"}))
            camera.start()
            time.sleep(settle_s)
            frame = camera.capture_array("main")
        except Exception as error:  # noqa: BLE001
            raise CameraError(f"the Raspberry Pi camera sent no picture ({error}): try again") from None
        finally:
            try:
                camera.stop()
            finally:
                camera.close()
    if frame is None or not getattr(frame, "size", 0):
        raise CameraError("the Raspberry Pi camera sent an empty picture: try again")
    return _encode(frame[:, :, :3])


def capture(camera: str | int = "auto", *, timeout_s: float = 3.0) -> bytes:
    """One frame from the camera that ``camera`` (a ``--camera`` value) names, as JPEG bytes."""
    spec = parse_camera(camera)
    if spec == "auto":
        spec = "picamera2" if pi_camera_present() else 0
    if spec == "picamera2":
        return capture_picamera2()
    if isinstance(spec, str):  # a device path such as /dev/video2
        return _capture_opencv(_open_path(spec), spec, timeout_s)
    return capture_jpeg(spec, timeout_s=timeout_s)
