"""The host camera on a Raspberry Pi (issue 13): the camera module through picamera2 (imported only when it
is installed), USB cameras through OpenCV, chosen by ``--camera``; the host-camera button works with
either.  Fakes stand in for picamera2 and for OpenCV's ``VideoCapture``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from flask.testing import FlaskClient

from companion.store import TableStore
from vision import camera
from vision.camera import CameraError, capture, describe, parse_camera

TOKEN = "pi-camera-token"


class FakePicamera2:
    """Stands in for ``picamera2.Picamera2``: records what was asked, returns a BGR frame."""

    cameras: list[dict[str, Any]] = [{"Model": "imx708", "Num": 0}]
    opened: list[FakePicamera2] = []
    fail_on_start = False

    def __init__(self, camera_num: int = 0) -> None:
        self.sensor_resolution = (4608, 2592)
        self.calls: list[str] = []
        self.config: dict[str, Any] = {}
        FakePicamera2.opened.append(self)

    @classmethod
    def global_camera_info(cls) -> list[dict[str, Any]]:
        return cls.cameras

    def create_still_configuration(self, main: dict[str, Any]) -> dict[str, Any]:
        return {"main": main}

    def configure(self, config: dict[str, Any]) -> None:
        self.config = config
        self.calls.append("configure")

    def start(self) -> None:
        if self.fail_on_start:
            raise RuntimeError("Device or resource busy")
        self.calls.append("start")

    def capture_array(self, stream: str = "main") -> np.ndarray:
        self.calls.append(f"capture {stream}")
        width, height = self.config["main"]["size"]
        frame = np.zeros((height, width, 3), np.uint8)
        frame[:, :, 0] = 200  # blue in OpenCV's B, G, R order
        return frame

    def stop(self) -> None:
        self.calls.append("stop")

    def close(self) -> None:
        self.calls.append("close")


@pytest.fixture
def pi_camera(monkeypatch: pytest.MonkeyPatch) -> type[FakePicamera2]:
    FakePicamera2.cameras = [{"Model": "imx708", "Num": 0}]
    FakePicamera2.opened = []
    FakePicamera2.fail_on_start = False
    monkeypatch.setattr(camera, "_picamera2_class", lambda: FakePicamera2)
    monkeypatch.setattr(camera, "PICAMERA_SETTLE_S", 0.0)
    return FakePicamera2


@pytest.fixture
def no_pi_camera(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(camera, "_picamera2_class", lambda: None)


@pytest.fixture
def usb(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """OpenCV's camera replaced: every device answers with grey frames; returns the devices opened."""
    opened: list[Any] = []

    class Capture:
        def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
            return True

        def read(self) -> tuple[bool, np.ndarray]:
            return True, np.full((48, 64, 3), 90, np.uint8)

        def release(self) -> None:
            pass

    def open_device(device: Any) -> Capture:
        opened.append(device)
        return Capture()

    monkeypatch.setattr(camera, "_open", open_device)
    monkeypatch.setattr(camera, "_open_path", open_device)
    return opened


def _decoded(data: bytes) -> np.ndarray:
    import cv2

    assert data[:2] == b"\xff\xd8", "a JPEG"
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)


def test_pi_camera_frame_keeps_the_sensor_aspect_and_its_colours(pi_camera: type[FakePicamera2]) -> None:
    image = _decoded(capture("picamera2"))
    assert image.shape == (1152, 2048, 3), "long side 2048, 16:9 like the sensor"
    assert image[:, :, 0].mean() > 190 and image[:, :, 2].mean() < 10, "B, G, R order kept"
    (opened,) = pi_camera.opened
    assert opened.config["main"]["format"] == "RGB888"
    assert opened.calls == ["configure", "start", "capture main", "stop", "close"], "the camera is let go"


def test_auto_prefers_the_pi_camera_module(pi_camera: type[FakePicamera2], usb: list[Any]) -> None:
    assert _decoded(capture("auto")).shape[1] == 2048 and usb == []
    assert describe("auto") == "Raspberry Pi camera (picamera2)"


def test_auto_uses_opencv_camera_0_without_picamera2(no_pi_camera: None, usb: list[Any]) -> None:
    assert _decoded(capture()).shape == (48, 64, 3) and usb == [0]
    assert describe("auto") == "camera 0 (OpenCV)"


def test_auto_uses_opencv_when_picamera2_sees_no_module(pi_camera: type[FakePicamera2], usb: list[Any]) -> None:
    pi_camera.cameras = []
    assert _decoded(capture("auto")).shape == (48, 64, 3) and usb == [0] and pi_camera.opened == []


@pytest.mark.parametrize(("spec", "device"), [("1", 1), (2, 2), ("/dev/video4", "/dev/video4")])
def test_usb_cameras_by_number_or_path(no_pi_camera: None, usb: list[Any], spec: Any, device: Any) -> None:
    assert _decoded(capture(spec)).shape == (48, 64, 3) and usb == [device]


def test_picamera2_asked_for_but_not_installed_says_how_to_get_it(no_pi_camera: None) -> None:
    with pytest.raises(CameraError, match="sudo apt install python3-picamera2.*--system-site-packages"):
        capture("picamera2")


def test_pi_camera_missing_or_busy_is_a_clear_error(pi_camera: type[FakePicamera2]) -> None:
    pi_camera.cameras = []
    with pytest.raises(CameraError, match="no Raspberry Pi camera found: check the ribbon cable"):
        capture("picamera2")
    pi_camera.cameras = [{"Num": 0}]
    pi_camera.fail_on_start = True
    with pytest.raises(CameraError, match="sent no picture .*busy"):
        capture("picamera2")
    assert pi_camera.opened[-1].calls[-2:] == ["stop", "close"], "closed even when it failed"


@pytest.mark.parametrize("spec", ["front", "-1", "", "picam", True, -2])
def test_bad_camera_value_says_what_to_write(spec: Any) -> None:
    with pytest.raises(CameraError, match="invalid camera"):
        parse_camera(spec)


def test_picamera2_is_imported_only_when_present(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None)
    assert camera._picamera2_class() is None and not camera.pi_camera_present()


# -- the host-camera button with either camera ------------------------------------------------------


def _host(client: FlaskClient, store: TableStore, app: Any, setting: str) -> tuple[str, list[bytes]]:
    table = store.create_table(game="okey", players=["Ali", "Can"], pin="1234")
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
        session["pins"] = {table: True}
    given: list[bytes] = []

    class Reader:
        def recognize(self, data: bytes, table: bool = False) -> Any:
            given.append(data)
            return type("Photo", (), {"tiles": (), "warnings": (), "width": 64, "height": 48})()

    app.extensions["recognizer"] = Reader()
    app.config["CAMERA"] = parse_camera(setting)
    return table, given


@pytest.mark.parametrize("setting", ["picamera2", "auto"])
def test_host_camera_button_with_the_pi_camera(client: FlaskClient, store: TableStore, app: Any, setting: str,
                                               pi_camera: type[FakePicamera2], usb: list[Any]) -> None:
    table, given = _host(client, store, app, setting)
    response = client.post(f"/t/{table}/camera", data={"csrf_token": TOKEN, "picker": "picker-tiles"})
    assert response.status_code == 200 and len(given) == 1 and usb == []
    assert _decoded(given[0]).shape == (1152, 2048, 3)


def test_host_camera_button_with_a_usb_camera(client: FlaskClient, store: TableStore, app: Any,
                                              pi_camera: type[FakePicamera2], usb: list[Any]) -> None:
    table, given = _host(client, store, app, "1")
    response = client.post(f"/t/{table}/camera", data={"csrf_token": TOKEN, "picker": "picker-tiles"})
    assert response.status_code == 200 and usb == [1] and pi_camera.opened == []
    assert _decoded(given[0]).shape == (48, 64, 3)


def test_host_camera_button_without_the_pi_camera_says_so(client: FlaskClient, store: TableStore, app: Any,
                                                          no_pi_camera: None) -> None:
    table, given = _host(client, store, app, "picamera2")
    response = client.post(f"/t/{table}/camera", data={"csrf_token": TOKEN, "picker": "picker-tiles"})
    assert response.status_code == 422 and "No camera answered on this computer" in response.text and given == []


def test_serve_refuses_a_bad_camera_before_starting(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import waitress

    from companion.cli import main

    monkeypatch.setattr(waitress, "serve", lambda *a, **k: pytest.fail("the server must not start"))
    assert main(["serve", "--camera", "front", "--port", "1"]) == 2
    assert "invalid camera 'front'" in capsys.readouterr().err
