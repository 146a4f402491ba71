"""The camera attached to the host (issue 4): one frame as JPEG, the clear error without a camera, and the
web route that only the host's own browser may use.  A fake ``VideoCapture`` stands in for the device."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from flask.testing import FlaskClient

from companion.store import TableStore
from vision import camera
from vision.camera import CameraError, capture_jpeg

TOKEN = "camera-token"


class FakeCapture:
    """A ``cv2.VideoCapture`` double: opened or not, and the frames it sends (``None`` = a failed read)."""

    def __init__(self, frames: list[Any], opened: bool = True) -> None:
        self.frames = list(frames)
        self.opened = opened
        self.released = False
        self.reads = 0

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return self.opened

    def read(self) -> tuple[bool, Any]:
        self.reads += 1
        frame = self.frames.pop(0) if self.frames else None
        return frame is not None, frame

    def release(self) -> None:
        self.released = True


def _fake(monkeypatch: pytest.MonkeyPatch, capture: FakeCapture) -> list[int]:
    opened: list[int] = []

    def open_device(device: int) -> FakeCapture:
        opened.append(device)
        return capture

    monkeypatch.setattr(camera, "_open", open_device)
    return opened


def _frame(level: int) -> Any:
    return np.full((48, 64, 3), level, dtype=np.uint8)


def test_capture_keeps_a_settled_frame_as_jpeg(monkeypatch: pytest.MonkeyPatch) -> None:
    import cv2

    frames = [_frame(10 * i) for i in range(1, 10)]
    capture = FakeCapture(frames)
    opened = _fake(monkeypatch, capture)
    data = capture_jpeg(1)
    assert opened == [1] and capture.released
    assert data[:2] == b"\xff\xd8", "a JPEG"
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (48, 64, 3)
    assert abs(int(image.mean()) - 60) <= 2, "the sixth frame, after the camera settled"


def test_capture_skips_failed_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake(monkeypatch, FakeCapture([None, None, _frame(200)]))
    assert capture_jpeg(timeout_s=0.3)[:2] == b"\xff\xd8"


def test_no_camera_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    capture = FakeCapture([], opened=False)
    _fake(monkeypatch, capture)
    with pytest.raises(CameraError, match="no camera at device 0: plug one in"):
        capture_jpeg()
    assert capture.released


def test_a_camera_without_pictures_times_out(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake(monkeypatch, FakeCapture([]))
    with pytest.raises(CameraError, match=r"camera 0 sent no picture within 0.1 s"):
        capture_jpeg(timeout_s=0.1)


@pytest.mark.parametrize("device", [-1, True, "0", 1.5])
def test_bad_device_is_refused_before_opening(monkeypatch: pytest.MonkeyPatch, device: Any) -> None:
    opened = _fake(monkeypatch, FakeCapture([_frame(1)]))
    with pytest.raises(CameraError, match="invalid camera device"):
        capture_jpeg(device)
    assert opened == []


def test_camera_error_is_a_value_error() -> None:
    assert issubclass(CameraError, ValueError)


def test_a_missing_device_through_opencv_itself() -> None:
    """This machine has no camera at index 63: OpenCV says so and the error is ours."""
    with pytest.raises(CameraError, match="no camera at device 63"):
        capture_jpeg(63, timeout_s=0.5)


# -- the web route ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seen:
    tile: str
    box: tuple[int, int, int, int]
    confidence: float = 0.99
    low_confidence: bool = False
    warnings: tuple[str, ...] = ()


@dataclass
class Reader:
    """Stands in for ``vision.Recognizer``: remembers the bytes it was given."""

    given: list[bytes] = field(default_factory=list)

    def recognize(self, data: bytes, table: bool = False) -> Any:
        self.given.append(data)
        tiles = (Seen("R7", (1, 1, 20, 30)), Seen("K13", (22, 1, 41, 30)))
        return type("Photo", (), {"tiles": tiles, "warnings": (), "width": 64, "height": 48})()


@pytest.fixture
def host(client: FlaskClient, store: TableStore, app: Any) -> tuple[FlaskClient, str, Reader]:
    table = store.create_table(game="okey", players=["Ali", "Can"], pin="1234")
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
        session["pins"] = {table: True}
    reader = Reader()
    app.extensions["recognizer"] = reader
    return client, table, reader


def test_host_camera_feeds_the_photo_flow(host: tuple[FlaskClient, str, Reader],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    client, table, reader = host
    monkeypatch.setattr(camera, "capture_jpeg", lambda device=0, timeout_s=3.0: b"\xff\xd8frame")
    response = client.post(f"/t/{table}/camera", data={"csrf_token": TOKEN, "picker": "picker-tiles"})
    assert response.status_code == 200
    assert reader.given == [b"\xff\xd8frame"]
    assert 'data-for-picker="picker-tiles"' in response.text and 'data-code="K13"' in response.text
    assert "data:image/jpeg;base64," in response.text


def test_host_camera_missing_says_so(host: tuple[FlaskClient, str, Reader], monkeypatch: pytest.MonkeyPatch) -> None:
    client, table, reader = host

    def no_camera(device: int = 0, timeout_s: float = 3.0) -> bytes:
        raise CameraError("no camera at device 0: plug one in, or take the photo with a phone")

    monkeypatch.setattr(camera, "capture_jpeg", no_camera)
    client.set_cookie("lang", "tr")
    response = client.post(f"/t/{table}/camera", data={"csrf_token": TOKEN, "picker": "picker-tiles"})
    assert response.status_code == 422 and "Bu bilgisayarda yanıt veren kamera yok" in response.text
    assert reader.given == []


def test_host_camera_refuses_phones(host: tuple[FlaskClient, str, Reader], monkeypatch: pytest.MonkeyPatch) -> None:
    client, table, reader = host
    grabbed: list[int] = []
    monkeypatch.setattr(camera, "capture_jpeg", lambda device=0, timeout_s=3.0: grabbed.append(device) or b"")
    phone = {"REMOTE_ADDR": "192.168.1.23"}
    response = client.post(f"/t/{table}/camera", data={"csrf_token": TOKEN}, environ_base=phone)
    assert response.status_code == 403 and "only be used from that computer itself" in response.text
    assert grabbed == [] and reader.given == []
    assert "Use this computer's camera" not in client.get(f"/t/{table}/win", environ_base=phone).text
    assert "Use this computer's camera" in client.get(f"/t/{table}/win").text
    assert client.post(f"/t/{table}/camera").status_code == 400, "CSRF-checked like every form"


@pytest.mark.parametrize(("address", "host"), [("127.0.0.1", True), ("::1", True), ("::ffff:127.0.0.1", True),
                                               ("192.168.1.23", False), ("::ffff:192.168.1.23", False), ("", False)])
def test_only_loopback_is_the_host(app: Any, address: str, host: bool) -> None:
    from companion.web.views_hands import on_host

    with app.test_request_context(environ_base={"REMOTE_ADDR": address}):
        assert on_host() is host
