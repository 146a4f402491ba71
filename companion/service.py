"""``okey-companion service``: a systemd unit that starts the companion at boot (a Raspberry Pi at the table).

``--print`` writes the unit to stdout; ``--install`` puts it in ``/etc/systemd/system`` (``--unit-dir`` or
``$OKEY_COMPANION_UNIT_DIR`` to choose another folder) and, for the system folder, enables and starts it.

The unit runs *this* installation's ``okey-companion serve`` (the script beside the running Python, so a
venv or pipx install is used as it is, never a different one on ``PATH``), as the user who asked for it
(``sudo`` keeps the name in ``$SUDO_USER``; ``--user`` to choose), with that user's data dir, and restarts
it whenever it stops.

>>> unit = render_unit(UnitSettings(exec_start=("/opt/okey/bin/okey-companion", "serve", "--data-dir",
...                                              "/home/pi/my tables"), user="pi"))
>>> print(unit[unit.index("[Unit]"):].strip())
[Unit]
Description=okey-companion table companion (Okey, Okey 101 and the rummy family)
Wants=network-online.target
After=network-online.target
<BLANKLINE>
[Service]
Type=simple
User=pi
SupplementaryGroups=video
Environment=PYTHONUNBUFFERED=1
ExecStart=/opt/okey/bin/okey-companion serve --data-dir "/home/pi/my tables"
Restart=always
RestartSec=3
<BLANKLINE>
[Install]
WantedBy=multi-user.target
"""

from __future__ import annotations

import getpass
import os
import pwd
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

UNIT_NAME = "okey-companion.service"
SYSTEM_UNIT_DIR = Path("/etc/systemd/system")
UNIT_DIR_ENV = "OKEY_COMPANION_UNIT_DIR"


class ServiceError(ValueError):
    """The unit cannot be written as asked (an unknown user, a folder that cannot be written …)."""


@dataclass(frozen=True)
class UnitSettings:
    """What goes into the unit: the command line it runs and the user it runs as."""

    exec_start: tuple[str, ...]
    user: str


def _quote(argument: str) -> str:
    """One ExecStart argument in systemd's syntax (double quotes around spaces; ``%`` and ``$`` escaped)."""
    text = argument.replace("%", "%%").replace("$", "$$")
    if text and not any(c in text for c in ' \t"\'\\;'):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render_unit(settings: UnitSettings) -> str:
    """The text of the systemd unit."""
    command = " ".join(_quote(argument) for argument in settings.exec_start)
    return "\n".join([
        "# okey-companion: the table companion, started at boot. Written by `okey-companion service`;",
        "# install with `sudo okey-companion service --install`, or copy to /etc/systemd/system/" + UNIT_NAME + ".",
        "[Unit]",
        "Description=okey-companion table companion (Okey, Okey 101 and the rummy family)",
        "Wants=network-online.target",
        "After=network-online.target",
        "",
        "[Service]",
        "Type=simple",
        f"User={settings.user}",
        "SupplementaryGroups=video",  # the camera devices (/dev/video*, /dev/media*) belong to group video
        "Environment=PYTHONUNBUFFERED=1",
        f"ExecStart={command}",
        "Restart=always",
        "RestartSec=3",
        "",
        "[Install]",
        "WantedBy=multi-user.target",
        "",
    ])


def this_install_command() -> tuple[str, ...]:
    """How to start this installation: its ``okey-companion`` script beside the running Python (not resolved:
    a venv's ``python`` is a link to the system's), else ``python -m companion``."""
    bin_dir = Path(sys.executable).parent
    for name in ("okey-companion", "okey-companion.exe"):
        script = bin_dir / name
        if script.is_file() and os.access(script, os.X_OK):
            return (str(script.absolute()),)
    return (str(Path(sys.executable).absolute()), "-m", "companion")


def service_user(requested: str | None = None) -> str:
    """The user the service runs as: ``requested``, else the one who ran ``sudo``, else the current user."""
    if requested:
        return requested
    sudo_user = os.environ.get("SUDO_USER")
    if sudo_user and sudo_user != "root":
        return sudo_user
    return getpass.getuser()


def _home(user: str) -> Path:
    try:
        return Path(pwd.getpwnam(user).pw_dir)
    except KeyError:
        raise ServiceError(f"no user {user!r} on this machine: give an existing one with --user NAME") from None


def build_settings(*, user: str | None = None, data_dir: str | None = None, host: str = "0.0.0.0",
                   port: int = 8000, camera: str = "auto", keep_photos: bool = False,
                   second_look: bool = True) -> UnitSettings:
    """The unit's settings from the command line's options (the data dir defaults to the user's own)."""
    from vision.camera import parse_camera

    who = service_user(user)
    parse_camera(camera)  # a bad value is refused now, not at boot
    if not 1 <= port <= 65535:
        raise ServiceError(f"--port {port} is not a port: use 1-65535, e.g. 8000")
    folder = Path(data_dir).expanduser() if data_dir else _home(who) / ".okey-companion"
    command = (*this_install_command(), "serve", "--host", host, "--port", str(port),
               "--data-dir", str(folder.absolute()), "--camera", str(camera), *(("--keep-photos",) if keep_photos else ()),
               *(() if second_look else ("--no-second-look",)))
    return UnitSettings(exec_start=command, user=who)


def unit_dir(requested: str | None = None) -> Path:
    """Where ``--install`` writes: ``--unit-dir``, else ``$OKEY_COMPANION_UNIT_DIR``, else /etc/systemd/system."""
    return Path(requested or os.environ.get(UNIT_DIR_ENV) or SYSTEM_UNIT_DIR)


def install(settings: UnitSettings, folder: Path, *, start: bool = True) -> list[str]:
    """Write the unit into ``folder``; in the system folder also reload systemd and enable + start the unit.

    Returns what was done, line by line, for the user to read.
    """
    if not folder.is_dir():
        raise ServiceError(f"no folder {str(folder)!r} for the unit: create it, or use --unit-dir DIR")
    path = folder / UNIT_NAME
    text = render_unit(settings)
    try:
        temporary = path.with_suffix(".tmp")
        temporary.write_text(text, encoding="utf-8")
        temporary.chmod(0o644)
        temporary.replace(path)
    except PermissionError:
        raise ServiceError(f"cannot write {path}: run it as root, e.g. "
                           f"sudo {' '.join(this_install_command())} service --install") from None
    done = [f"wrote {path}"]
    commands = [["systemctl", "daemon-reload"], ["systemctl", "enable", "--now", UNIT_NAME]]
    systemctl = shutil.which("systemctl")
    if folder.resolve() == SYSTEM_UNIT_DIR.resolve() and start and systemctl:
        for command in commands:
            result = subprocess.run([systemctl, *command[1:]], capture_output=True, text=True, check=False)
            if result.returncode != 0:
                raise ServiceError(f"{' '.join(command)} failed: {result.stderr.strip() or result.returncode}")
            done.append("ran " + " ".join(command))
        done.append("the companion now starts at boot; see it with: systemctl status okey-companion")
    else:
        done.append("to start it at boot: " + " && ".join("sudo " + " ".join(c) for c in commands))
    return done
