"""``okey-companion serve``: run the app with waitress and show the LAN address as text and a QR code.

LAN addresses are found without sending any network traffic: from ``ip -o -4 addr show`` when the
``ip`` tool exists, else from resolving the host name.  Loopback is skipped unless it is all there is.

>>> parse_ip_addr_output('''1: lo    inet 127.0.0.1/8 scope host lo
... 2: wlan0    inet 192.168.1.23/24 brd 192.168.1.255 scope global dynamic wlan0''')
['192.168.1.23']
>>> lan_urls(["192.168.1.23"], 8000)
['http://192.168.1.23:8000/']
"""

from __future__ import annotations

import ipaddress
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from typing import TextIO

import segno

_INET = re.compile(r"\binet\s+(\d+\.\d+\.\d+\.\d+)/\d+")


def _usable(address: str) -> bool:
    ip = ipaddress.IPv4Address(address)
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def parse_ip_addr_output(text: str) -> list[str]:
    """The non-loopback IPv4 addresses in the output of ``ip -o -4 addr show``, in order, no repeats."""
    found: list[str] = []
    for address in _INET.findall(text):
        if _usable(address) and address not in found:
            found.append(address)
    return found


def lan_addresses() -> list[str]:
    """This machine's LAN IPv4 addresses; ``["127.0.0.1"]`` when there is none.  Sends no packets."""
    found: list[str] = []
    ip_tool = shutil.which("ip")
    if ip_tool:
        try:
            result = subprocess.run(
                [ip_tool, "-o", "-4", "addr", "show"], capture_output=True, text=True, timeout=3, check=False
            )
            found = parse_ip_addr_output(result.stdout)
        except (OSError, subprocess.SubprocessError):
            found = []
    if not found:
        try:
            infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        except OSError:
            infos = []
        for info in infos:
            address = str(info[4][0])
            if _usable(address) and address not in found:
                found.append(address)
    return found or ["127.0.0.1"]


def lan_urls(addresses: list[str], port: int) -> list[str]:
    """The URLs phones on the LAN open."""
    return [f"http://{address}:{port}/" for address in addresses]


def print_banner(urls: list[str], out: TextIO) -> None:
    """Print the addresses and a terminal QR code of the first one."""
    out.write("okey-companion is running. Open on a phone on the same Wi-Fi:\n")
    for url in urls:
        out.write(f"  {url}\n")
    segno.make(urls[0], error="m").terminal(out=out, compact=True)
    out.write("Press Ctrl+C to stop.\n")
    out.flush()


def serve(*, host: str = "0.0.0.0", port: int = 8000, data_dir: str | Path | None = None, threads: int = 8,
          camera: str = "auto", keep_photos: bool = False, second_look: bool = True) -> None:
    """Serve the companion with waitress on ``host:port`` until interrupted.

    ``keep_photos`` keeps the photos the pickers read, with the tiles as the players confirm them, in the data
    dir's ``kept-photos`` folder (:mod:`companion.kept_photos`).  ``second_look=False`` reads each tile with one
    classifier, not two (quicker on a Raspberry Pi; fewer misread tiles flagged).

    ``camera`` is the host camera of the photo pickers (``auto``, ``picamera2``, ``0``, ``/dev/video0``; see
    :mod:`vision.camera`); a malformed value raises :class:`vision.camera.CameraError` before anything starts.
    """
    from waitress import serve as waitress_serve  # type: ignore[import-untyped]

    from companion.web import create_app
    from vision.camera import parse_camera

    config: dict[str, object] = {"CAMERA": parse_camera(camera), "KEEP_PHOTOS": keep_photos, "SECOND_LOOK": second_look}
    if data_dir is not None:
        config["DATA_DIR"] = str(data_dir)
    app = create_app(config)
    if host in {"0.0.0.0", ""}:
        addresses = lan_addresses()
    else:
        addresses = [host]
    print_banner(lan_urls(addresses, port), sys.stdout)
    if keep_photos:
        print(f"Photos read are kept, with the tiles as confirmed, in {Path(app.config['DATA_DIR']) / 'kept-photos'}")
    if not second_look:
        print("Tiles are read with one classifier (--no-second-look): quicker, fewer misread tiles flagged")
    app.config["LAN_URLS"] = lan_urls(addresses, port)
    waitress_serve(app, host=host, port=port, threads=threads, ident="okey-companion")
