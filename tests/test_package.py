"""The wheel (issue 13): built from the repository, installed into a fresh virtual environment and run
from another working directory — every page serves, ``recognize`` reads a photo, ``--version`` answers.

The build runs without build isolation (the test venv's setuptools and Babel, no network) on a copy of the
files git tracks, so nothing of the working tree's ``build/`` leaks in.  The fresh venv sees the test venv's
packages through a ``.pth`` line (the spirit of ``--system-site-packages`` when the test venv is itself a
venv) and gets the wheel with ``--no-deps``; ``PYTHONPATH`` is removed, so the code that runs is the wheel's.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
import site
import urllib.error
import urllib.parse
import urllib.request
import venv
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import companion

ROOT = Path(__file__).resolve().parents[1]
PHOTO = ROOT / "tests" / "data" / "vision" / "real_rack_6.jpg"
SKIP_COPY = {".git", ".venv", "build", "dist", "__pycache__", ".pytest_cache", ".mypy_cache"}


def _source_files() -> list[Path]:
    """The files a fresh clone has: git's tracked and not-ignored files, else the tree minus build output."""
    try:
        listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                                capture_output=True, check=True, timeout=30).stdout
        return [ROOT / name for name in listed.decode().split("\0") if name and (ROOT / name).is_file()]
    except (OSError, subprocess.SubprocessError):
        return [path for path in ROOT.rglob("*") if path.is_file()
                and not SKIP_COPY.intersection(path.relative_to(ROOT).parts)
                and not any(part.endswith(".egg-info") for part in path.parts)]


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONHOME", "OKEY_COMPANION_DATA"}}
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("source")
    for path in _source_files():
        target = source / path.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
    out = tmp_path_factory.mktemp("dist")
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q",
         "-w", str(out), str(source)],
        capture_output=True, text=True, timeout=120, env=_clean_env(),
    )
    assert build.returncode == 0, build.stdout + build.stderr
    (built,) = out.glob("okey_companion-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel installed; returns its ``bin`` folder."""
    env_dir = tmp_path_factory.mktemp("venv")
    venv.EnvBuilder(with_pip=False, clear=True).create(env_dir)
    bin_dir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True, env=_clean_env()).stdout.strip()
    # The test venv's packages (Flask, onnxruntime …) without running its .pth files (no editable install).
    parents = dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"],
                             *site.getsitepackages(), site.getusersitepackages()])
    Path(purelib, "_test_venv_packages.pth").write_text(
        "\n".join(p for p in parents if p and Path(p).is_dir() and Path(p).resolve() != ROOT) + "\n")
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q",
         str(wheel)], capture_output=True, text=True, timeout=120, env=_clean_env())
    assert install.returncode == 0, install.stdout + install.stderr
    return bin_dir


def test_wheel_carries_templates_models_static_and_compiled_translations(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {f"companion/templates/{p.relative_to(ROOT / 'templates').as_posix()}"
                for p in (ROOT / "templates").rglob("*.html")}
    expected |= {f"vision/models/{p.name}" for p in (ROOT / "models").iterdir() if p.is_file()}
    expected |= {f"companion/static/{p.relative_to(ROOT / 'companion' / 'static').as_posix()}"
                 for p in (ROOT / "companion" / "static").rglob("*") if p.is_file()}
    for po in (ROOT / "companion" / "translations").glob("*/LC_MESSAGES/messages.po"):
        relative = po.relative_to(ROOT / "companion").as_posix()
        expected |= {f"companion/{relative}", f"companion/{relative[:-3]}.mo"}
    if (ROOT / "docs" / "rules.md").is_file():
        expected.add("companion/docs/rules.md")
    assert "vision/models/detector.onnx" in expected and "companion/templates/base.html" in expected
    assert sorted(expected - names) == []
    assert not [n for n in names if n.startswith(("templates/", "models/", "tests/", "scripts/"))], \
        "nothing at the top of site-packages but the two packages"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


OTHER_PAGES = {
    "okey_points": ("/points",),
    "rummikub": ("/rummikub", "/laydown", "/turn"),
    "rami40": ("/cards", "/cards/opening"),
    "turkish": ("/cards", "/cards/opening"),
    "thai": ("/thai",),
}
"""The other games' own pages, served from the wheel too (their templates are the wheel's)."""


@pytest.fixture(scope="module")
def served(installed: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    """``okey-companion serve`` from the installed wheel, in an unrelated working directory."""
    from companion.store import TableStore

    data = tmp_path_factory.mktemp("data")
    with TableStore(data / "tables.sqlite") as store:
        tables = {game: store.create_table(game=game, players=["Ali", "Can", "Eda"], pin="1234")
                  for game in ("okey", "okey101")}
        tables |= {game: store.create_table(game=game, players=["Ali", "Can", "Eda", "Filiz"], pin="1234")
                   for game in OTHER_PAGES}
    port = _free_port()
    cwd = tmp_path_factory.mktemp("elsewhere")
    log = (cwd / "serve.log").open("w")
    server = subprocess.Popen([str(installed / "okey-companion"), "serve", "--host", "127.0.0.1", "--port",
                               str(port), "--data-dir", str(data)], cwd=cwd, env=_clean_env(),
                              stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(base + "/favicon.ico", timeout=2).close()
                break
            except (urllib.error.URLError, ConnectionError):
                assert server.poll() is None, (cwd / "serve.log").read_text()
                assert time.monotonic() < deadline, "the server did not answer within 30 s"
                time.sleep(0.2)
        yield base, tables
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def test_version(installed: Path, tmp_path: Path) -> None:
    result = subprocess.run([str(installed / "okey-companion"), "--version"], cwd=tmp_path, env=_clean_env(),
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stdout.strip() == f"okey-companion {companion.__version__}"


def test_installed_code_is_the_wheels(installed: Path, tmp_path: Path) -> None:
    where = subprocess.run(
        [str(installed / "python"), "-c",
         "import companion, vision.recognizer as r, companion.resources as c;"
         "print(companion.__file__); print(r.MODELS_DIR); print(c.templates_dir()); print(c.source_checkout())"],
        cwd=tmp_path, env=_clean_env(), capture_output=True, text=True, timeout=60)
    assert where.returncode == 0, where.stderr
    package, models, templates, checkout = where.stdout.split("\n")[:4]
    site = Path(package).parent.parent
    assert str(installed.parent) in package and ROOT.as_posix() not in where.stdout
    assert Path(models) == site / "vision" / "models" and Path(templates) == site / "companion" / "templates"
    assert checkout == "None"


def test_recognize_from_another_directory(installed: Path, tmp_path: Path) -> None:
    photo = tmp_path / "rack.jpg"
    shutil.copy(PHOTO, photo)
    result = subprocess.run([str(installed / "okey-companion"), "recognize", "rack.jpg", "--json"], cwd=tmp_path,
                            env=_clean_env(), capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert len(answer["tiles"]) == 6, answer


def _csrf(page: str) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert match, "a form with a CSRF token"
    return match.group(1)


def test_every_page_serves_from_the_wheel(served: tuple[str, dict[str, str]]) -> None:
    base, tables = served
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(path: str, lang: str = "en") -> str:
        request = urllib.request.Request(base + path, headers={"Accept-Language": lang})
        with opener.open(request, timeout=30) as response:
            assert response.status == 200, path
            return str(response.read().decode("utf-8"))

    assert "<form" in get("/") and "<form" in get("/new/options?game=okey101")
    assert "Okey yardımcısı" in get("/", "tr"), "the compiled Turkish catalogue is used"
    assert get("/static/app.css") and get("/static/vendor/htmx-2.0.4.min.js") and get("/favicon.ico")
    for game, table in tables.items():
        page = get(f"/t/{table}")
        if game in OTHER_PAGES:
            form = urllib.parse.urlencode({"csrf_token": _csrf(page), "pin": "1234"}).encode()
            opener.open(urllib.request.Request(f"{base}/t/{table}/pin", data=form), timeout=30).close()
            for path in OTHER_PAGES[game]:
                assert "<form" in get(f"/t/{table}{path}"), path
            continue
        form = urllib.parse.urlencode({"csrf_token": _csrf(page), "pin": "1234"}).encode()
        opener.open(urllib.request.Request(f"{base}/t/{table}/pin", data=form), timeout=30).close()
        for path in ("", "/history", "/deal", "/opening", "/win" if game == "okey" else "/hand"):
            page = get(f"/t/{table}{path}")
            assert 'name="pin"' not in page or path == "/history", f"{path}: the PIN was taken"
        assert json.loads(get(f"/api/tables/{table}"))["id"] == table


def _pins(lock: Path) -> dict[str, str]:
    from packaging.utils import canonicalize_name

    pins = {}
    for line in lock.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"{lock.name}: {line!r} is not pinned with =="
            pins[canonicalize_name(name)] = version
    return pins


@pytest.mark.parametrize(("lock", "extras"), [("requirements.lock", ("test",)), ("requirements-pi.lock", ())])
def test_lock_pins_every_dependency_within_its_range(lock: str, extras: tuple[str, ...]) -> None:
    import tomllib

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [*project["dependencies"], *(r for extra in extras for r in project["optional-dependencies"][extra])]
    pins = _pins(ROOT / lock)
    for text in wanted:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{lock}: add {requirement.name}==<the version you tested> (pyproject wants {text})"
        assert requirement.specifier.contains(pins[name], prereleases=True), \
            f"{lock}: {requirement.name}=={pins[name]} is outside pyproject's range {text}"


def test_pi_lock_keeps_numpy_1_and_skips_the_broken_onnxruntime() -> None:
    pins = _pins(ROOT / "requirements-pi.lock")
    assert pins["numpy"].startswith("1."), "apt's picamera2/simplejpeg are built against numpy 1.x"
    assert pins["onnxruntime"] != "1.21.0", "onnxruntime 1.21.0 stops with 'Illegal instruction' on a Pi 4"
    import tomllib

    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    assert any(d.startswith("onnxruntime") and "!=1.21.0" in d for d in dependencies)


def test_service_unit_runs_the_installed_script(installed: Path, tmp_path: Path) -> None:
    result = subprocess.run([str(installed / "okey-companion"), "service", "--print", "--data-dir", "tables"],
                            cwd=tmp_path, env=_clean_env(), capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    (exec_start,) = [line for line in result.stdout.splitlines() if line.startswith("ExecStart=")]
    assert exec_start.startswith(f"ExecStart={installed / 'okey-companion'} serve ")
    assert f"--data-dir {tmp_path / 'tables'}" in exec_start
