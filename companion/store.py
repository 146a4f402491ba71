"""The table store: every change to a table is an event in SQLite, and no acknowledged score is ever lost.

One SQLite file in WAL mode with ``synchronous=FULL``; every write is one ``BEGIN IMMEDIATE`` transaction,
committed before the method returns.  The event log is the persistence *and* the undo: an undo is a new
event that marks the latest effective event undone, a redo is a new event that re-applies it.

>>> import tempfile, os
>>> store = TableStore(os.path.join(tempfile.mkdtemp(), "t.sqlite"))
>>> table_id = store.create_table(game="okey", players=["Ali", "Can", "Deniz", "Ece"], pin="1234")
>>> store.record(table_id, {"type": "rename", "player": 1, "name": "Cem"}).players
('Ali', 'Cem', 'Deniz', 'Ece')
>>> store.undo(table_id).players
('Ali', 'Can', 'Deniz', 'Ece')
>>> [(e.seq, e.type, e.undone) for e in store.events(table_id)]
[(1, 'rename', True), (2, 'undo', False)]
>>> store.close()
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import random
import secrets
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from companion.rules.options import options_for, options_to_dict
from companion.rules.schema import short_repr
from companion.tables import (
    InvalidEventError,
    InvalidTableError,
    TableMeta,
    Fold,
    TableState,
    new_meta,
    prepare_event,
    replay,
)

__all__ = [
    "TableStore",
    "EventRecord",
    "TableSummary",
    "TableNotFound",
    "NothingToUndo",
    "NothingToRedo",
    "EventIdReused",
    "ReadOnlyStore",
    "TABLE_ID_ALPHABET",
    "hash_pin",
    "normalise_table_id",
]

TABLE_ID_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""Table ids use letters and digits nobody confuses when reading them aloud (no 0/O, 1/I/L)."""
TABLE_ID_LENGTH = 5
PIN_ITERATIONS = 60_000
LOCK_RETRIES = 5
"""How often a BEGIN or COMMIT that SQLite failed with "locking protocol" (SQLITE_PROTOCOL: WAL's lock race lost many
times over, as on a loaded machine; transient by SQLite's own account) is tried again, LOCK_PAUSE seconds apart,
doubling, before the error is raised ("database is locked" has waited out the busy timeout already and is raised).
A COMMIT is tried again only while its transaction is still open, so nothing is written twice and nothing
acknowledged is lost."""
LOCK_PAUSE = 0.05
MAX_CLIENT_ID = 64

UNDO, REDO = "undo", "redo"

# Ordered schema migrations; ``PRAGMA user_version`` is the number applied so far.  Append, never edit.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        game TEXT NOT NULL,
        players TEXT NOT NULL,
        options TEXT NOT NULL,
        profile TEXT NOT NULL,
        first_dealer INTEGER NOT NULL,
        pin_hash TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        summary TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE events (
        table_id TEXT NOT NULL REFERENCES tables(id),
        seq INTEGER NOT NULL,
        client_id TEXT,
        type TEXT NOT NULL,
        payload TEXT NOT NULL,
        actor TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL,
        undone_by INTEGER,
        PRIMARY KEY (table_id, seq),
        UNIQUE (table_id, client_id)
    );
    CREATE TABLE player_names (
        name TEXT PRIMARY KEY COLLATE NOCASE,
        last_used TEXT NOT NULL
    );
    CREATE INDEX tables_by_creation ON tables (created_at);
    """,
    # the event as the client sent it (without its id), so a reused id with another change is refused
    "ALTER TABLE events ADD COLUMN request TEXT",
)


class TableNotFound(LookupError):
    """No table has this id."""


class NothingToUndo(LookupError):
    """The table has no effective event left to undo."""


class NothingToRedo(LookupError):
    """Nothing was undone since the last recorded event."""


class ReadOnlyStore(RuntimeError):
    """The database cannot be written (a read-only file, folder or disk): reads still work."""


class EventIdReused(InvalidEventError):
    """A client event id sent again with a different change (a retry must resend the same event)."""


@dataclass(frozen=True)
class EventRecord:
    """One line of a table's audit log: who did what, when, and whether it was undone."""

    seq: int
    type: str
    payload: dict[str, Any]
    actor: str
    created_at: str
    client_id: str | None = None
    undone_by: int | None = None

    @property
    def undone(self) -> bool:
        return self.undone_by is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "type": self.type,
            "payload": self.payload,
            "actor": self.actor,
            "created_at": self.created_at,
            "id": self.client_id,
            "undone": self.undone,
            "undone_by": self.undone_by,
        }


@dataclass(frozen=True)
class TableSummary:
    """A past table as listed in the history: no replay needed."""

    id: str
    name: str
    game: str
    players: tuple[str, ...]
    created_at: str
    updated_at: str
    version: int
    hands: int = 0
    finished: bool = False
    winners: tuple[int, ...] = field(default_factory=tuple)
    default_name: bool = False
    standing: tuple[tuple[str, int], ...] = ()
    """Each column of the sheet (a player, or a team) with its total, as of the last change."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "game": self.game,
            "players": list(self.players),
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "version": self.version,
            "hands": self.hands,
            "finished": self.finished,
            "winners": list(self.winners),
            "totals": [total for _column, total in self.standing],
        }


def _now(timespec: str = "seconds") -> str:
    return datetime.now(timezone.utc).isoformat(timespec=timespec)


def _check_pin_format(pin: object) -> None:
    if not isinstance(pin, str) or len(pin) != 4 or not pin.isascii() or not pin.isdigit():
        raise InvalidTableError(f"invalid pin {pin!r}: the PIN must be exactly 4 digits, as a string such as '0427'")


def hash_pin(pin: str, *, salt: bytes | None = None, iterations: int = PIN_ITERATIONS) -> str:
    """``pbkdf2_sha256$iterations$salt$hash`` for a 4-digit PIN (the salt is random unless given)."""
    salt = secrets.token_bytes(16) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, iterations)
    return f"pbkdf2_sha256${iterations}${salt.hex()}${digest.hex()}"


def _pin_matches(pin: str, stored: str) -> bool:
    _, iterations, salt, _ = stored.split("$")
    return hmac.compare_digest(hash_pin(pin, salt=bytes.fromhex(salt), iterations=int(iterations)), stored)


def normalise_table_id(table_id: str) -> str:
    """Table ids are read aloud and typed on phones: accept any case and stray spaces."""
    return str(table_id).strip().upper()


@dataclass(frozen=True)
class _Kept:
    version: int
    fold: Fold
    state: TableState


class _KeptStates:
    """Each table's folded events and state at its latest version, kept in the process between requests
    (a store lives for one request).  Keyed by database file, table and version: any change to a table
    (from this process or another) changes its version, and a state kept for an older one is never used."""

    def __init__(self, size: int = 64) -> None:
        self._size = size
        self._kept: OrderedDict[tuple[str, str], _Kept] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, database: str, table_id: str, version: int) -> _Kept | None:
        with self._lock:
            kept = self._kept.get((database, table_id))
            if kept is None or kept.version != version:
                return None
            self._kept.move_to_end((database, table_id))
            return kept

    def put(self, database: str, table_id: str, version: int, fold: Fold, state: TableState | None = None) -> _Kept:
        kept = _Kept(version, fold, fold.state(version) if state is None else state)
        with self._lock:
            current = self._kept.get((database, table_id))
            if current is None or current.version <= version:
                self._kept[(database, table_id)] = kept
                self._kept.move_to_end((database, table_id))
            while len(self._kept) > self._size:
                self._kept.popitem(last=False)
        return kept


_KEPT = _KeptStates()


class TableStore:
    """Tables and their event logs in one SQLite file.  One store (one connection) per request or thread."""

    def __init__(self, path: str | Path, *, rng: random.Random | None = None) -> None:
        self.path = Path(path)
        self._key = str(self.path.resolve())
        self._rng = rng or random.Random()
        self.read_only = False
        _create_private(self.path)
        self._con = sqlite3.connect(self.path, timeout=15, isolation_level=None)
        self._con.row_factory = sqlite3.Row
        try:
            self._con.execute("PRAGMA journal_mode=WAL")
        except sqlite3.OperationalError as error:
            if "readonly" not in str(error):
                raise
            self._open_read_only()
            return
        self._con.execute("PRAGMA synchronous=FULL")
        self._con.execute("PRAGMA foreign_keys=ON")
        self._migrate()

    def _open_read_only(self) -> None:
        """A database this process may not write (a read-only file, folder or disk): the tables can still be
        read; every write raises :class:`ReadOnlyStore`.  Without write access to the folder SQLite cannot
        share the WAL index, so the file is then read as immutable (nothing else can change it either)."""
        self._con.close()
        self.read_only = True
        uri = self.path.resolve().as_uri()
        for flags in ("mode=ro", "mode=ro&immutable=1"):
            self._con = sqlite3.connect(f"{uri}?{flags}", uri=True, timeout=15, isolation_level=None)
            self._con.row_factory = sqlite3.Row
            try:
                self._con.execute("SELECT COUNT(*) FROM tables").fetchone()
                return
            except sqlite3.OperationalError:
                self._con.close()
        raise ReadOnlyStore(f"cannot read the database {str(self.path)!r}: it is read-only and its WAL files are missing")

    def close(self) -> None:
        self._con.close()

    def __enter__(self) -> TableStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _migrate(self) -> None:
        if self._con.execute("PRAGMA user_version").fetchone()[0] >= len(MIGRATIONS):
            return
        with self._write() as con:
            applied = con.execute("PRAGMA user_version").fetchone()[0]
            for script in MIGRATIONS[applied:]:
                for statement in script.split(";"):
                    if statement.strip():
                        con.execute(statement)
            con.execute(f"PRAGMA user_version = {len(MIGRATIONS)}")

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taking the write lock up front so concurrent writers queue, not fail."""
        if self.read_only:
            raise ReadOnlyStore(
                f"the database {str(self.path)!r} is read-only: the tables can be read, nothing can be recorded; "
                "make the data dir and the database writable by this user, then restart"
            )
        self._locked("BEGIN IMMEDIATE")
        try:
            yield self._con
        except BaseException:
            self._con.execute("ROLLBACK")
            raise
        self._locked("COMMIT")

    def _locked(self, statement: str) -> None:
        """``BEGIN IMMEDIATE`` or ``COMMIT``, tried again on a transient lock error (``LOCK_RETRIES``).  A COMMIT whose
        transaction SQLite has closed is not retried: the error is raised and the caller's change was not recorded."""
        pause = LOCK_PAUSE
        for attempt in range(LOCK_RETRIES + 1):
            try:
                self._con.execute(statement)
                return
            except sqlite3.OperationalError as error:
                transient = "locking protocol" in str(error)
                still_open = statement != "COMMIT" or self._con.in_transaction
                if not transient or not still_open or attempt == LOCK_RETRIES:
                    if statement == "COMMIT" and self._con.in_transaction:
                        self._con.execute("ROLLBACK")
                    raise
            time.sleep(pause)
            pause *= 2

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """One read transaction: several SELECTs see the same snapshot."""
        self._con.execute("BEGIN")
        try:
            yield self._con
        finally:
            self._con.execute("COMMIT")

    # -- creating and reading tables -------------------------------------------------------------

    def create_table(
        self,
        *,
        game: str,
        players: list[str],
        pin: str,
        options: dict[str, Any] | None = None,
        profile: str = "reference",
        first_dealer: int = 0,
        name: str | None = None,
    ) -> str:
        """Create a table and return its id (a short code such as ``K7P2Q``)."""
        _check_pin_format(pin)
        pin_hash = hash_pin(pin)
        now = _now()
        meta = new_meta("", game=game, players=players, options=options, profile=profile,
                        first_dealer=first_dealer, name=name, created_at=now)
        with self._write() as con:
            table_id = self._fresh_id(con)
            meta = meta.with_id(table_id)
            state = replay(meta, [])
            con.execute(
                "INSERT INTO tables (id, name, game, players, options, profile, first_dealer, pin_hash,"
                " created_at, updated_at, version, summary) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)",
                (table_id, meta.name, meta.game, json.dumps(list(meta.players)),
                 json.dumps(options_to_dict(meta.options)), meta.profile, meta.first_dealer,
                 pin_hash, now, now, json.dumps(_summary(state))),
            )
            self._remember_names(con, meta.players)
        return table_id

    def _fresh_id(self, con: sqlite3.Connection) -> str:
        while True:
            table_id = "".join(secrets.choice(TABLE_ID_ALPHABET) for _ in range(TABLE_ID_LENGTH))
            if con.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone() is None:
                return table_id

    @staticmethod
    def _meta_row(con: sqlite3.Connection, table_id: str, columns: str = "*") -> sqlite3.Row:
        row: sqlite3.Row | None = con.execute(
            f"SELECT {columns} FROM tables WHERE id = ?", (normalise_table_id(table_id),)
        ).fetchone()
        if row is None:
            raise TableNotFound(f"no table {table_id!r}: check the code on the table's screen")
        return row

    @staticmethod
    def _meta(row: sqlite3.Row) -> TableMeta:
        return TableMeta(
            id=row["id"],
            name=row["name"],
            game=row["game"],
            players=tuple(json.loads(row["players"])),
            options=options_for(row["game"], json.loads(row["options"])),
            profile=row["profile"],
            first_dealer=row["first_dealer"],
            created_at=row["created_at"],
        )

    def _effective(self, con: sqlite3.Connection, table_id: str) -> list[dict[str, Any]]:
        rows = con.execute(
            "SELECT payload FROM events WHERE table_id = ? AND type NOT IN (?, ?) AND undone_by IS NULL"
            " ORDER BY seq",
            (table_id, UNDO, REDO),
        )
        return [json.loads(row["payload"]) for row in rows]

    def _fold(self, con: sqlite3.Connection, row: sqlite3.Row) -> Fold:
        """The table's events folded: kept from an earlier request when the table's version is the same."""
        kept = _KEPT.get(self._key, row["id"], row["version"])
        if kept is not None:
            return kept.fold
        fold = Fold(self._meta(row), self._effective(con, row["id"]))
        _KEPT.put(self._key, row["id"], row["version"], fold)
        return fold

    def _state(self, con: sqlite3.Connection, row: sqlite3.Row) -> TableState:
        kept = _KEPT.get(self._key, row["id"], row["version"])
        if kept is not None:
            return kept.state
        return _KEPT.put(self._key, row["id"], row["version"], self._fold(con, row)).state

    def get(self, table_id: str) -> TableState:
        """The table's current state, replayed from its effective events."""
        with self._read() as con:
            return self._state(con, self._meta_row(con, table_id))

    def version(self, table_id: str) -> int:
        """How many events the table's log holds: changes whenever anything is recorded (cheap, for polling)."""
        return int(self._meta_row(self._con, table_id, "version")["version"])

    def check_pin(self, table_id: str, pin: str) -> bool:
        """Whether ``pin`` is the table's PIN (False for anything that is not 4 digits)."""
        stored = self._meta_row(self._con, table_id, "pin_hash")["pin_hash"]
        try:
            _check_pin_format(pin)
        except InvalidTableError:
            return False
        return _pin_matches(pin, stored)

    def events(self, table_id: str) -> list[EventRecord]:
        """The audit log: every event ever recorded, undo and redo included, oldest first."""
        with self._read() as con:
            row = self._meta_row(con, table_id)
            rows = con.execute("SELECT * FROM events WHERE table_id = ? ORDER BY seq", (row["id"],)).fetchall()
        return [
            EventRecord(
                seq=r["seq"], type=r["type"], payload=json.loads(r["payload"]), actor=r["actor"],
                created_at=r["created_at"], client_id=r["client_id"], undone_by=r["undone_by"],
            )
            for r in rows
        ]

    def recorded(self, table_id: str, client_id: str) -> bool:
        """Whether an event with this client-chosen id is in the table's log (one indexed lookup, not the log)."""
        with self._read() as con:
            row = self._meta_row(con, table_id)
            found = con.execute("SELECT 1 FROM events WHERE table_id = ? AND client_id = ?",
                                (row["id"], client_id)).fetchone()
        return found is not None

    def list_tables(self) -> list[TableSummary]:
        """Every table, newest first."""
        rows = self._con.execute("SELECT * FROM tables ORDER BY created_at DESC, rowid DESC").fetchall()
        summaries = []
        for row in rows:
            summary = json.loads(row["summary"])
            summaries.append(TableSummary(
                id=row["id"], name=summary.get("name", row["name"]), game=row["game"],
                players=tuple(summary.get("players", json.loads(row["players"]))),
                created_at=row["created_at"], updated_at=row["updated_at"], version=row["version"],
                hands=summary.get("hands", 0), finished=summary.get("finished", False),
                winners=tuple(summary.get("winners", ())),
                default_name=summary.get("default_name", False),
                standing=tuple(zip(summary.get("columns", ()), summary.get("totals", ()))),
            ))
        return summaries

    def known_player_names(self) -> list[str]:
        """Names typed at earlier tables, most recently used first."""
        rows = self._con.execute("SELECT name FROM player_names ORDER BY last_used DESC, name")
        return [row["name"] for row in rows]

    # -- writing events --------------------------------------------------------------------------

    def record(self, table_id: str, event: Mapping[str, Any], *, actor: str = "") -> TableState:
        """Record one event and return the new state; an invalid event raises and writes nothing.

        ``event`` may carry a client-chosen ``"id"``: the same id twice records once.
        """
        return self.record_once(table_id, event, actor=actor)[0]

    def record_once(
        self, table_id: str, event: Mapping[str, Any], *, actor: str = ""
    ) -> tuple[TableState, bool]:
        """Like :meth:`record`, also saying whether the event was new (False: its id was seen before)."""
        if not isinstance(event, Mapping):
            raise InvalidEventError(f"invalid event {event!r}: an event is an object with a 'type'")
        payload = dict(event)
        client_id = _client_id(payload.pop("id", None))
        request = _request_text(payload)
        with self._write() as con:
            row = self._meta_row(con, table_id)
            if client_id is not None and self._seen(con, row["id"], client_id, request):
                return self._state(con, row), False
            fold = self._fold(con, row)
            payload = prepare_event(self._state(con, row), payload, self._rng)
            following = fold.then(payload, new=True)
            state = following.state(row["version"] + 1)
            self._append(con, row["id"], payload["type"], payload, actor, client_id, state, request)
            if payload["type"] == "rename":
                self._remember_names(con, (state.players[payload["player"]],))
        _KEPT.put(self._key, row["id"], state.version, following, state)  # only once committed
        return state, True

    def undo(self, table_id: str, *, actor: str = "", client_id: str | None = None) -> TableState:
        """Undo the latest effective event (any number of times); :class:`NothingToUndo` when none is left."""
        return self._undo_or_redo(UNDO, table_id, actor, _client_id(client_id))

    def redo(self, table_id: str, *, actor: str = "", client_id: str | None = None) -> TableState:
        """Re-apply the event undone most recently, unless something new was recorded since."""
        return self._undo_or_redo(REDO, table_id, actor, _client_id(client_id))

    def _undo_or_redo(self, kind: str, table_id: str, actor: str, client_id: str | None) -> TableState:
        request = _request_text({"type": kind})
        with self._write() as con:
            row = self._meta_row(con, table_id)
            if client_id is not None and self._seen(con, row["id"], client_id, request):
                return self._state(con, row)
            if kind == UNDO:
                target = con.execute(
                    "SELECT MAX(seq) FROM events WHERE table_id = ? AND type NOT IN (?, ?) AND undone_by IS NULL",
                    (row["id"], UNDO, REDO),
                ).fetchone()[0]
                if target is None:
                    raise NothingToUndo(f"nothing to undo at table {row['id']!r}")
                con.execute("UPDATE events SET undone_by = ? WHERE table_id = ? AND seq = ?",
                            (row["version"] + 1, row["id"], target))
            else:
                target = self._redo_target(con, row["id"])
                if target is None:
                    raise NothingToRedo(
                        f"nothing to redo at table {row['id']!r}: nothing was undone since the last change"
                    )
                con.execute("UPDATE events SET undone_by = NULL WHERE table_id = ? AND seq = ?", (row["id"], target))
            fold = self._fold_after(con, row, kind, target)
            state = fold.state(row["version"] + 1)
            self._append(con, row["id"], kind, {"type": kind, "target": target}, actor, client_id, state, request)
        _KEPT.put(self._key, row["id"], state.version, fold, state)
        return state

    def _fold_after(self, con: sqlite3.Connection, row: sqlite3.Row, kind: str, target: int) -> Fold:
        """The fold once ``target`` is undone (the fold it came from, when kept) or redone (one event more)."""
        effective = self._effective(con, row["id"])  # already without (or with) the target
        kept = _KEPT.get(self._key, row["id"], row["version"])
        if kept is not None and kind == UNDO and kept.fold.previous is not None:
            if list(kept.fold.previous.events) == effective:
                return kept.fold.previous
        if kept is not None and kind == REDO and list(kept.fold.events) == effective[:-1]:
            return kept.fold.then(effective[-1])
        return Fold(self._meta(row), effective)

    @staticmethod
    def _redo_target(con: sqlite3.Connection, table_id: str) -> int | None:
        """The top of the redo stack: undos push, redos pop, any new event empties it."""
        stack: list[int] = []
        for r in con.execute("SELECT type, payload FROM events WHERE table_id = ? ORDER BY seq", (table_id,)):
            if r["type"] == UNDO:
                stack.append(json.loads(r["payload"])["target"])
            elif r["type"] == REDO:
                stack.pop()
            else:
                stack.clear()
        return stack[-1] if stack else None

    @staticmethod
    def _seen(con: sqlite3.Connection, table_id: str, client_id: str, request: str) -> bool:
        """Whether ``client_id`` was recorded already (a retry); :class:`EventIdReused` when it was, for
        another change than ``request``."""
        seen = con.execute(
            "SELECT seq, type, request FROM events WHERE table_id = ? AND client_id = ?", (table_id, client_id)
        ).fetchone()
        if seen is None:
            return False
        if seen["request"] is not None and seen["request"] != request:
            raise EventIdReused(
                f"event id {client_id!r} was already used at table {table_id!r} for another change "
                f"(the {seen['type']} event {seen['seq']}): send a new id with every new change"
            )
        return True

    @staticmethod
    def _append(con: sqlite3.Connection, table_id: str, kind: str, payload: dict[str, Any], actor: str,
                client_id: str | None, state: TableState, request: str) -> None:
        now = _now()
        con.execute(
            "INSERT INTO events (table_id, seq, client_id, type, payload, actor, created_at, request)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (table_id, state.version, client_id, kind, json.dumps(payload), str(actor)[:64], now, request),
        )
        con.execute("UPDATE tables SET version = ?, updated_at = ?, summary = ? WHERE id = ?",
                    (state.version, now, json.dumps(_summary(state)), table_id))

    @staticmethod
    def _remember_names(con: sqlite3.Connection, names: tuple[str, ...]) -> None:
        now = _now("microseconds")
        con.executemany(
            "INSERT INTO player_names (name, last_used) VALUES (?, ?)"
            " ON CONFLICT (name) DO UPDATE SET name = excluded.name, last_used = excluded.last_used",
            [(name, now) for name in names],
        )


def _request_text(payload: Mapping[str, Any]) -> str:
    """The change a client asked for, as comparable text (its id left out)."""
    return json.dumps(payload, sort_keys=True)


def _create_private(path: Path) -> None:
    """Create an empty database file readable by this user only (0600; SQLite gives its -wal and -shm
    files the same mode): it holds the PIN hashes."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass


def _client_id(value: object) -> str | None:
    if value is None:
        return None
    text = str(value)
    if (not isinstance(value, (str, int)) or isinstance(value, bool) or not text or len(text) > MAX_CLIENT_ID
            or not text.isprintable()):
        raise InvalidEventError(
            f"invalid event id {short_repr(value)}: use a string of 1-{MAX_CLIENT_ID} printable characters"
        )
    return text


def _summary(state: TableState) -> dict[str, Any]:
    columns = ([" & ".join(state.players[seat] for seat in team) for team in state.teams] if state.teams
               else list(state.players))
    return {
        "name": state.name,
        "default_name": state.default_name,
        "players": list(state.players),
        "hands": len(state.hands),
        "finished": state.finished,
        "winners": list(state.winners),
        "columns": columns,
        "totals": list(state.totals),
    }
