"""``okey-companion service`` (issue 13): the systemd unit that starts the companion at boot.  ``--print``
is checked line by line; ``--install`` only ever writes into a temporary folder here (``--unit-dir`` or
``$OKEY_COMPANION_UNIT_DIR``), never the real /etc."""

from __future__ import annotations

import getpass
import os
import pwd
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion import service
from companion.cli import main

ME = getpass.getuser()


@pytest.fixture(autouse=True)
def no_systemctl(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test may reload or start real services."""
    real_run = subprocess.run

    def guarded(command, *args, **kwargs):  # type: ignore[no-untyped-def]
        assert "systemctl" not in str(command[0]), f"a test ran {command}"
        return real_run(command, *args, **kwargs)

    monkeypatch.setattr(service.subprocess, "run", guarded)
    monkeypatch.delenv("SUDO_USER", raising=False)
    monkeypatch.delenv(service.UNIT_DIR_ENV, raising=False)


def _unit(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, str]:
    assert main(["service", "--print", *args]) == 0
    text = capsys.readouterr().out
    fields = {}
    for line in text.splitlines():
        if "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            fields[key] = value
    fields["_text"] = text
    return fields


def test_printed_unit_runs_this_install_as_the_user_with_their_data_dir(capsys: pytest.CaptureFixture[str]) -> None:
    unit = _unit(capsys)
    command = shlex.split(unit["ExecStart"])
    script = Path(sys.executable).parent / "okey-companion"
    expected_start = [str(script)] if script.exists() else [sys.executable, "-m", "companion"]
    assert command[: len(expected_start)] == expected_start, "this installation's okey-companion, not another"
    rest = command[len(expected_start):]
    home = Path(pwd.getpwnam(ME).pw_dir)
    assert rest == ["serve", "--host", "0.0.0.0", "--port", "8000", "--data-dir", str(home / ".okey-companion"),
                    "--camera", "auto"]
    assert unit["User"] == ME and unit["Restart"] == "always" and unit["WantedBy"] == "multi-user.target"
    assert unit["After"] == "network-online.target" and unit["SupplementaryGroups"] == "video"
    assert unit["_text"].index("[Unit]") < unit["_text"].index("[Service]") < unit["_text"].index("[Install]")


def test_under_sudo_the_unit_runs_as_the_user_who_asked(capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    other = next((p for p in pwd.getpwall() if p.pw_name != ME and p.pw_name != "root"), None)
    if other is None:
        pytest.skip("this machine has a single user")
    monkeypatch.setenv("SUDO_USER", other.pw_name)
    unit = _unit(capsys)
    assert unit["User"] == other.pw_name
    assert f"--data-dir {shlex.quote(str(Path(other.pw_dir) / '.okey-companion'))}" in unit["ExecStart"] or \
        str(Path(other.pw_dir) / ".okey-companion") in shlex.split(unit["ExecStart"])


def test_options_reach_the_command_line(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    unit = _unit(capsys, "--user", ME, "--data-dir", "my tables", "--port", "8080", "--camera", "picamera2",
                 "--host", "192.168.1.5")
    command = shlex.split(unit["ExecStart"])
    assert command[command.index("--data-dir") + 1] == str(tmp_path / "my tables"), "an absolute data dir"
    assert command[command.index("--port") + 1] == "8080" and command[command.index("--camera") + 1] == "picamera2"
    assert command[command.index("--host") + 1] == "192.168.1.5"
    assert '"' + str(tmp_path / "my tables") + '"' in unit["ExecStart"], "quoted for systemd"


@pytest.mark.parametrize(("args", "message"), [
    (["--user", "no-such-user-here"], "no user 'no-such-user-here' on this machine"),
    (["--camera", "front"], "invalid camera 'front'"),
    (["--port", "0"], "--port 0 is not a port"),
])
def test_bad_settings_are_refused_clearly(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    assert main(["service", "--print", *args]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""


def test_print_or_install_must_be_chosen(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["service"])
    assert "--print" in capsys.readouterr().err


def test_install_writes_the_printed_unit(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    printed = _unit(capsys)["_text"]
    assert main(["service", "--install", "--unit-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    unit = tmp_path / "okey-companion.service"
    assert unit.read_text(encoding="utf-8") == printed and oct(unit.stat().st_mode & 0o777) == "0o644"
    assert f"wrote {unit}" in out and "sudo systemctl enable --now okey-companion.service" in out
    assert [p.name for p in tmp_path.iterdir()] == ["okey-companion.service"], "no temporary file left"


def test_install_folder_from_the_environment(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(service.UNIT_DIR_ENV, str(tmp_path))
    assert service.unit_dir() == tmp_path
    assert main(["service", "--install"]) == 0 and (tmp_path / "okey-companion.service").is_file()


def test_install_into_a_missing_folder_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["service", "--install", "--unit-dir", str(tmp_path / "nope")]) == 2
    assert "no folder" in capsys.readouterr().err


def test_default_install_folder_is_systemds() -> None:
    assert service.unit_dir() == Path("/etc/systemd/system")


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    unit = tmp_path / "okey-companion.service"
    unit.write_text(service.render_unit(service.build_settings(user=ME)), encoding="utf-8")
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True,
                            env={**os.environ, "SYSTEMD_LOG_LEVEL": "err"})
    assert "okey-companion.service" not in result.stderr, result.stderr


@pytest.mark.parametrize("args", [[], ["--no-second-look"]])
def test_the_unit_passes_no_second_look_on(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    command = shlex.split(_unit(capsys, "--user", ME, *args)["ExecStart"])
    assert ("--no-second-look" in command) is bool(args)
