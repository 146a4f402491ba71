"""Photos kept at the table, with the tiles as the players confirmed them: real racks to measure the reader on.

The tile reader has been measured on rendered Okey racks and on one real Rummikub set; real Okey racks are
what it is for.  A host who starts the app with ``--keep-photos`` keeps every photo the pickers read in
``<data dir>/kept-photos`` (on this computer only: nothing leaves it), with what the reader said, and, once a
player taps "Use these tiles", the tiles as the players left them (tapped, corrected or just accepted).
``okey-companion photos export DIR`` writes the labelled ones as a folder that ``scripts/eval_vision.py
--labelled DIR`` measures (``images/`` and ``labels.csv``), with a copy of each photo with its labels drawn
on it to look over first (``drawn/``).  Photos of melds laid on the table (taken with a picker of melds, read with the
table's own detector) go to ``DIR/table``, measured likewise with ``--table``.

The folder::

    images/<id>.<ext>   the photo as uploaded (bytes unchanged, EXIF and all); <id>: its sha256, 20 hex digits
    read/<id>.json      what the reader said: size (upright), tiles with code, box, confidence, unsure; whether the
                        photo shows melds laid on the table (``table``)
    labels/<id>.json    the tiles as used: each read tile's code after the players' taps, and how it was checked

Every file is written whole or not at all (a temporary file renamed over it); a photo read twice is kept
once, and its labels are the last ones sent.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import re
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.rules.errors import RulesError
from companion.rules.tiles import parse_tiles

FOLDER = "kept-photos"
"""The folder of kept photos inside the data dir."""
MOST_PHOTOS = 1000
"""Photos kept at most (about 3 GB of 12 MP phone photos, room on a Pi's SD card): past it a photo is read but not
kept (a note in the log)."""
MOST_BYTES = 3 * 1024**3
"""Bytes kept at most: a host whose players upload large photos fills its card no faster than with phone photos."""
ID = re.compile(r"^[0-9a-f]{20}$")
CHECKED = ("fixed", "confirmed", "accepted")
"""How a tile of the labels was checked: picked from the list (``fixed``), tapped to say it was read right
(``confirmed``), or taken as read without a tap (``accepted``: a tile the reader was sure of)."""
TABLE_FOLDER = "table"
"""Inside an export, the folder of the photos of melds laid on the table (read with the table's detector)."""
CSV_FIELDS = ("image", "tile", "x1", "y1", "x2", "y2", "read", "confidence", "checked")
_EXTENSIONS = ((b"\xff\xd8", ".jpg"), (b"\x89PNG", ".png"), (b"RIFF", ".webp"), (b"BM", ".bmp"))


class LabelError(ValueError):
    """Labels that do not fit the kept photo they name: the message says what was wrong."""


def photo_id(data: bytes) -> str:
    """The kept photo's name: the first 20 hex digits of its sha256 (the same photo twice is kept once)."""
    return hashlib.sha256(data).hexdigest()[:20]


def _write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".part")
    try:
        with os.fdopen(descriptor, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


@dataclass(frozen=True)
class Labelled:
    """One labelled photo: its image file and its tiles (code, box, what was read, confidence, how checked)."""

    image: Path
    tiles: tuple[dict[str, Any], ...]
    table: bool = False
    """Whether the photo shows melds laid on the table (read with the table's detector), not a rack."""


class KeptPhotos:
    """The kept-photos folder of one data dir (see the module's help)."""

    def __init__(self, root: Path, most: int = MOST_PHOTOS, most_bytes: int = MOST_BYTES) -> None:
        self.root = Path(root)
        self.most = most
        self.most_bytes = most_bytes

    def _image(self, ident: str) -> Path | None:
        return next((p for p in sorted((self.root / "images").glob(f"{ident}.*")) if not p.name.startswith(".")), None)

    def _kept(self) -> list[Path]:
        folder = self.root / "images"
        return [p for p in folder.iterdir() if not p.name.startswith(".")] if folder.is_dir() else []

    def count(self) -> int:
        return len(self._kept())

    def full(self, adding: int = 0) -> bool:
        """Whether one more photo of ``adding`` bytes would pass :data:`MOST_PHOTOS` or :data:`MOST_BYTES`."""
        kept = self._kept()
        return len(kept) >= self.most or sum(p.stat().st_size for p in kept) + adding > self.most_bytes

    def keep(self, data: bytes, size: tuple[int, int], tiles: Sequence[Mapping[str, Any]],
             table: bool = False) -> str | None:
        """Keep a photo and what the reader said of it (``tiles``: ``code``, ``box``, ``confidence``, ``unsure``;
        ``table``: the photo shows melds laid on the table); its id, or ``None`` when the folder is full."""
        ident = photo_id(data)
        if self._image(ident) is None:
            if self.full(len(data)):
                return None
            extension = next((ext for magic, ext in _EXTENSIONS if data.startswith(magic)), ".img")
            _write(self.root / "images" / f"{ident}{extension}", data)
        read = {"photo": ident, "size": [int(size[0]), int(size[1])], "time": round(time.time()),
                "tiles": [{"code": str(t["code"]), "box": [round(float(v), 1) for v in t["box"]],
                           "confidence": round(float(t["confidence"]), 4), "unsure": bool(t["unsure"])} for t in tiles],
                "table": bool(table)}
        _write(self.root / "read" / f"{ident}.json", json.dumps(read, indent=1).encode())
        return ident

    def read(self, ident: str) -> dict[str, Any]:
        """What the reader said of a kept photo; :class:`LabelError` for an id that names none."""
        path = self.root / "read" / f"{ident}.json"
        if not ID.match(ident) or not path.is_file() or self._image(ident) is None:
            raise LabelError(f"no kept photo {ident!r}: take the photo again")
        reading: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return reading

    def label(self, ident: str, sent: Any) -> int:
        """Keep the tiles of a kept photo as the players left them; the number of tiles.  ``sent`` is
        ``{"tiles": [{"index": i, "code": "R7", "checked": "fixed"}, …]}``, one entry per tile the reader
        found (``index`` into its reading).  Anything else raises :class:`LabelError` and keeps nothing."""
        reading = self.read(ident)
        found = reading["tiles"]
        if not isinstance(sent, dict) or not isinstance(sent.get("tiles"), list):
            raise LabelError('labels must be {"tiles": [{"index": 0, "code": "R7", "checked": "accepted"}, …]}')
        entries = sent["tiles"]
        if len(entries) != len(found):
            raise LabelError(f"{len(entries)} labels for the {len(found)} tiles read on this photo: send one for each")
        labelled: dict[int, dict[str, Any]] = {}
        for entry in entries:
            if not isinstance(entry, dict):
                raise LabelError(f"a label must be an object, not {entry!r}")
            index, code, checked = entry.get("index"), entry.get("code"), entry.get("checked")
            if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(found) or index in labelled:
                raise LabelError(f"label index {index!r}: give each tile's index once, 0 to {len(found) - 1}")
            if checked not in CHECKED:
                raise LabelError(f"label checked {checked!r}: one of {', '.join(CHECKED)}")
            try:
                tiles = parse_tiles(str(code)) if isinstance(code, str) and len(code) <= 3 else []
            except RulesError:
                tiles = []
            if len(tiles) != 1:
                raise LabelError(f"label code {code!r}: one tile, such as R7, K13 or F")
            labelled[index] = {**found[index], "read": found[index]["code"], "code": tiles[0].code, "checked": checked}
        record = {"photo": ident, "size": reading["size"], "time": round(time.time()),
                  "tiles": [labelled[i] for i in range(len(found))], "table": bool(reading.get("table", False))}
        _write(self.root / "labels" / f"{ident}.json", json.dumps(record, indent=1).encode())
        return len(found)

    def unlabelled(self) -> int:
        """Kept photos that no player used (the reader found nothing, or nobody tapped "Use these tiles")."""
        return sum(not (self.root / "labels" / f"{p.stem}.json").is_file() for p in self._kept())

    def labelled(self) -> Iterator[Labelled]:
        """Every kept photo with labels, oldest first."""
        folder = self.root / "labels"
        records = []
        for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
            image = self._image(path.stem)
            if image is None:
                continue
            record = json.loads(path.read_text(encoding="utf-8"))
            records.append((record.get("time", 0), image, tuple(record["tiles"]), bool(record.get("table", False))))
        for _time, image, tiles, table in sorted(records, key=lambda r: (r[0], r[1].name)):
            yield Labelled(image, tiles, table)

    def export(self, out: Path) -> tuple[int, int, dict[str, int], int]:
        """Write the labelled photos to ``out``: ``images/`` and ``labels.csv`` (``CSV_FIELDS``), the photos of melds
        laid on the table to ``out/table`` likewise (``TABLE_FOLDER``).  Returns the photos, the tiles, the tiles by how
        they were checked, and how many of the photos show the table."""
        photos = tiles = 0
        checked = dict.fromkeys(CHECKED, 0)
        labelled = list(self.labelled())
        racks, on_table = [p for p in labelled if not p.table], [p for p in labelled if p.table]
        for folder, group in ((out, racks), (out / TABLE_FOLDER, on_table)):
            if folder != out and not group:
                continue  # no photo of the table: no folder for them
            (folder / "images").mkdir(parents=True, exist_ok=True)
            with open(folder / "labels.csv", "w", newline="", encoding="utf-8") as handle:
                writer = csv.DictWriter(handle, fieldnames=CSV_FIELDS)
                writer.writeheader()
                for photo in group:
                    _write(folder / "images" / photo.image.name, photo.image.read_bytes())
                    photos += 1
                    for tile in photo.tiles:
                        x1, y1, x2, y2 = tile["box"]
                        writer.writerow({"image": f"images/{photo.image.name}", "tile": tile["code"], "x1": x1,
                                         "y1": y1, "x2": x2, "y2": y2, "read": tile["read"],
                                         "confidence": tile["confidence"], "checked": tile["checked"]})
                        tiles += 1
                        checked[tile["checked"]] += 1
        return photos, tiles, checked, len(on_table)


def kept_photos(data_dir: Path) -> KeptPhotos:
    """The kept photos of a data dir."""
    return KeptPhotos(Path(data_dir) / FOLDER)
