"""The table store: the event log, idempotent ids, undo/redo, PINs, history and remembered names."""

from __future__ import annotations

import hashlib
import sqlite3

import pytest

from companion.rules.errors import InvalidOptionError, InvalidTileError
from companion.store import PIN_ITERATIONS, TABLE_ID_ALPHABET, NothingToRedo, NothingToUndo, TableNotFound, TableStore
from companion.tables import InvalidEventError, InvalidTableError

PLAYERS = ["Ali", "Can", "Deniz", "Ece"]


@pytest.fixture
def table_id(store: TableStore) -> str:
    return store.create_table(game="okey", players=PLAYERS, pin="1234")


def rename(store: TableStore, table_id: str, seat: int, name: str, **extra) -> tuple[str, ...]:
    return store.record(table_id, {"type": "rename", "player": seat, "name": name, **extra}).players


def test_table_ids_are_short_unambiguous_codes(store):
    ids = {store.create_table(game="okey", players=PLAYERS, pin="1234") for _ in range(20)}
    assert len(ids) == 20
    assert all(len(i) == 5 and set(i) <= set(TABLE_ID_ALPHABET) for i in ids)
    assert not set("01ILO") & set(TABLE_ID_ALPHABET)


def test_new_table_state(store, table_id):
    state = store.get(table_id)
    assert (state.id, state.game, state.players) == (table_id, "okey", tuple(PLAYERS))
    assert (state.dealer, state.version) == (0, 0)
    assert state.name == "Okey – Ali, Can, Deniz, Ece"
    assert state.options.start_points == 20
    assert store.version(table_id) == 0


def test_ids_are_read_in_any_case(store, table_id):
    assert store.get(f" {table_id.lower()} ").id == table_id


def test_options_and_profile_are_kept(store):
    table_id = store.create_table(game="101", players=PLAYERS[:3], pin="0000", options={"hands": 3},
                                  profile="no_doublings", first_dealer=2, name="Friday")
    state = store.get(table_id)
    assert (state.game, state.name, state.profile, state.dealer) == ("okey101", "Friday", "no_doublings", 2)
    assert (state.options.hands, state.options.multipliers) == (3, False)


@pytest.mark.parametrize("pin", ["123", "12345", "12a4", 1234, "", None, "１２３４"])
def test_pin_must_be_four_digits(store, pin):
    with pytest.raises(InvalidTableError, match="exactly 4 digits"):
        store.create_table(game="okey", players=PLAYERS, pin=pin)


@pytest.mark.parametrize(
    "players, message",
    [
        (["Ali"], "2, 3 or 4 players"),
        (PLAYERS + ["Fatma"], "2, 3 or 4 players"),
        (["Ali", "ali"], "duplicate player name 'ali'"),
        (["Ali", "  "], "invalid player name '  '"),
        (["Ali", "x" * 25], "at most 24 characters"),
        ("Ali, Can", "as a list of names"),
    ],
)
def test_players_are_two_to_four_distinct_names(store, players, message):
    with pytest.raises(InvalidTableError, match=message):
        store.create_table(game="okey", players=players, pin="1234")


def test_bad_game_options_and_dealer_are_refused(store):
    with pytest.raises(InvalidOptionError, match="unknown game 'tavla'"):
        store.create_table(game="tavla", players=PLAYERS, pin="1234")
    with pytest.raises(InvalidOptionError, match="did you mean 'start_points'"):
        store.create_table(game="okey", players=PLAYERS, pin="1234", options={"start_point": 30})
    with pytest.raises(InvalidTableError, match="partners need 4 players"):
        store.create_table(game="okey", players=PLAYERS[:3], pin="1234", options={"partners": True})
    with pytest.raises(InvalidTableError, match="invalid first dealer 4"):
        store.create_table(game="okey", players=PLAYERS, pin="1234", first_dealer=4)
    assert store.list_tables() == []


def test_check_pin(store, table_id):
    assert store.check_pin(table_id, "1234")
    assert not store.check_pin(table_id, "4321")
    assert not store.check_pin(table_id, "12345")
    with pytest.raises(TableNotFound, match="no table 'NOPE1'"):
        store.check_pin("NOPE1", "1234")


def test_pin_is_stored_salted_and_hashed(store, table_id):
    other = store.create_table(game="okey", players=PLAYERS, pin="1234")
    con = sqlite3.connect(store.path)
    hashes = [row[0] for row in con.execute("SELECT pin_hash FROM tables WHERE id IN (?, ?)", (table_id, other))]
    con.close()
    for stored in hashes:
        scheme, iterations, salt, digest = stored.split("$")
        assert scheme == "pbkdf2_sha256" and int(iterations) == PIN_ITERATIONS
        # The PIN is never a field of its own: only a 16-byte salt and a 32-byte digest, both hex. (A random hex
        # string may contain "1234" by chance, so the test checks the shape and the digest, not a substring.)
        assert len(bytes.fromhex(salt)) == 16 and len(bytes.fromhex(digest)) == 32
        assert digest == hashlib.pbkdf2_hmac("sha256", b"1234", bytes.fromhex(salt), int(iterations)).hex()
    assert hashes[0] != hashes[1]


class _LosesTheLockRace:
    """The store's connection, whose ``statement`` fails with SQLITE_PROTOCOL the first ``times`` times (SQLite returns
    it when a connection loses WAL's lock race many times over: rare, transient)."""

    def __init__(self, con: sqlite3.Connection, statement: str, times: int) -> None:
        self._con, self._statement, self.left = con, statement, times

    def execute(self, sql: str, *args):
        if sql == self._statement and self.left > 0:
            self.left -= 1
            raise sqlite3.OperationalError("locking protocol")
        return self._con.execute(sql, *args)

    def __getattr__(self, name: str):
        return getattr(self._con, name)


@pytest.mark.parametrize("statement", ["BEGIN IMMEDIATE", "COMMIT"])
def test_a_lost_lock_race_is_tried_again_and_the_change_recorded_once(store, table_id, monkeypatch, statement):
    monkeypatch.setattr("companion.store.LOCK_PAUSE", 0.001)
    before = len(store.events(table_id))
    store._con = _LosesTheLockRace(store._con, statement, 2)
    assert rename(store, table_id, 0, "Ayşe")[0] == "Ayşe"
    assert store._con.left == 0
    assert len(store.events(table_id)) == before + 1


def test_a_lock_race_lost_every_time_is_an_error_and_records_nothing(store, table_id, monkeypatch):
    monkeypatch.setattr("companion.store.LOCK_PAUSE", 0.001)
    before = store.events(table_id)
    real = store._con
    store._con = _LosesTheLockRace(real, "COMMIT", 100)
    with pytest.raises(sqlite3.OperationalError, match="locking protocol"):
        rename(store, table_id, 0, "Ayşe")
    store._con = real
    assert not real.in_transaction
    assert store.events(table_id) == before
    assert store.get(table_id).players == tuple(PLAYERS), "the state kept in memory is not the unrecorded change's"
    assert rename(store, table_id, 0, "Ayşe")[0] == "Ayşe"


def test_unknown_table(store):
    for call in (store.get, store.version, store.events):
        with pytest.raises(TableNotFound):
            call("ZZZZZ")
    with pytest.raises(TableNotFound):
        store.record("ZZZZZ", {"type": "rename", "player": 0, "name": "X"})
    with pytest.raises(TableNotFound):
        store.undo("ZZZZZ")


def test_record_returns_the_new_state_and_bumps_the_version(store, table_id):
    assert rename(store, table_id, 1, "Cem") == ("Ali", "Cem", "Deniz", "Ece")
    assert store.get(table_id).players[1] == "Cem"
    assert store.version(table_id) == 1


def test_invalid_event_writes_nothing(store, table_id):
    store.record(table_id, {"type": "deal", "dice": [5, 2]})
    with pytest.raises(InvalidTileError, match="'R14'"):
        store.record(table_id, {"type": "indicator", "tile": "R14"})
    with pytest.raises(InvalidEventError, match="unknown event type 'dance'"):
        store.record(table_id, {"type": "dance"})
    with pytest.raises(InvalidEventError, match="an event is an object"):
        store.record(table_id, ["deal"])  # type: ignore[arg-type]
    assert store.version(table_id) == 1
    assert [e.type for e in store.events(table_id)] == ["deal"]


def test_same_client_id_records_once(store, table_id):
    first, new = store.record_once(table_id, {"id": "tap-1", "type": "rename", "player": 0, "name": "Ayşe"})
    again, new_again = store.record_once(table_id, {"id": "tap-1", "type": "rename", "player": 0, "name": "Ayşe"})
    assert (new, new_again) == (True, False)
    assert first == again
    assert store.version(table_id) == 1
    assert store.events(table_id)[0].client_id == "tap-1"
    assert "id" not in store.events(table_id)[0].payload


def test_client_ids_are_per_table(store, table_id):
    other = store.create_table(game="okey", players=PLAYERS, pin="1234")
    rename(store, table_id, 0, "A1", id="same")
    assert rename(store, other, 0, "A2", id="same")[0] == "A2"


def test_bad_client_id(store, table_id):
    with pytest.raises(InvalidEventError, match="invalid event id"):
        rename(store, table_id, 0, "X", id="x" * 65)


def test_undo_and_redo_many_steps(store, table_id):
    for name in ("B", "C", "D"):
        rename(store, table_id, 0, name)
    assert store.undo(table_id).players[0] == "C"
    assert store.undo(table_id).players[0] == "B"
    assert store.undo(table_id).players[0] == "Ali"
    with pytest.raises(NothingToUndo, match="nothing to undo"):
        store.undo(table_id)
    assert store.redo(table_id).players[0] == "B"
    assert store.redo(table_id).players[0] == "C"
    assert store.undo(table_id).players[0] == "B"
    assert store.redo(table_id).players[0] == "C"
    assert store.redo(table_id).players[0] == "D"
    with pytest.raises(NothingToRedo, match="nothing to redo"):
        store.redo(table_id)
    log = store.events(table_id)
    assert [e.type for e in log] == ["rename"] * 3 + ["undo"] * 3 + ["redo"] * 2 + ["undo", "redo", "redo"]
    assert not any(e.undone for e in log)
    assert store.version(table_id) == len(log) == store.get(table_id).version


def test_a_new_event_clears_the_redo_stack(store, table_id):
    rename(store, table_id, 0, "B")
    rename(store, table_id, 0, "C")
    store.undo(table_id)
    rename(store, table_id, 1, "X")
    with pytest.raises(NothingToRedo):
        store.redo(table_id)
    assert store.undo(table_id).players[:2] == ("B", "Can")
    assert store.undo(table_id).players[:2] == ("Ali", "Can")
    with pytest.raises(NothingToUndo):
        store.undo(table_id)


def test_undo_marks_the_event_in_the_audit_log(store, table_id):
    rename(store, table_id, 0, "B")
    store.undo(table_id, actor="phone-2")
    rename_event, undo_event = store.events(table_id)
    assert rename_event.undone and rename_event.undone_by == undo_event.seq == 2
    assert (undo_event.type, undo_event.payload, undo_event.actor) == ("undo", {"type": "undo", "target": 1}, "phone-2")
    assert undo_event.to_dict()["undone"] is False


def test_undo_with_a_client_id_is_idempotent(store, table_id):
    rename(store, table_id, 0, "B")
    rename(store, table_id, 0, "C")
    store.undo(table_id, client_id="u1")
    assert store.undo(table_id, client_id="u1").players[0] == "B"


def test_server_rolls_and_records_the_dice(store, table_id):
    state = store.record(table_id, {"type": "deal", "roll": True})
    dice = store.events(table_id)[0].payload["dice"]
    assert state.deal.dice == tuple(dice) and all(1 <= d <= 6 for d in dice)
    assert store.events(table_id)[0].payload["rolled"] is True
    assert store.get(table_id).deal.dice == tuple(dice)


def test_list_tables_newest_first_with_summary(store):
    first = store.create_table(game="okey", players=PLAYERS, pin="1234")
    second = store.create_table(game="okey101", players=PLAYERS[:2], pin="1234")
    rename(store, second, 0, "Zeynep")
    summaries = store.list_tables()
    assert [s.id for s in summaries] == [second, first]
    assert summaries[0].players == ("Zeynep", "Can") and summaries[0].version == 1
    assert summaries[0].to_dict()["game"] == "okey101"


def test_known_player_names_are_remembered(store, table_id):
    store.create_table(game="okey", players=["Fatma", "ali"], pin="1234")
    rename(store, table_id, 2, "Gül")
    names = store.known_player_names()
    assert names[0] == "Gül"
    assert sorted(names) == sorted(["Gül", "ali", "Fatma", "Can", "Deniz", "Ece"])


def test_a_second_store_on_the_same_file_sees_everything(store, table_id):
    rename(store, table_id, 0, "B")
    with TableStore(store.path) as other:
        assert other.get(table_id).players[0] == "B"
        rename(other, table_id, 0, "C")
    assert store.get(table_id).players[0] == "C"


def test_database_is_wal_and_migrated(store):
    con = sqlite3.connect(store.path)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert con.execute("PRAGMA user_version").fetchone()[0] >= 1
    con.close()


def test_recorded_says_whether_an_event_id_is_in_the_log(tmp_path):
    """A form refused after its event was recorded (a retry) is told by one lookup, not by reading the log."""
    with TableStore(tmp_path / "t.sqlite") as store:
        table = store.create_table(game="okey", players=["A", "B"], pin="1234")
        other = store.create_table(game="okey", players=["C", "D"], pin="1234")
        store.record(table, {"type": "indicator", "tile": "R4", "id": "form-1"})
        assert store.recorded(table, "form-1") and store.recorded(table.lower(), "form-1")
        assert not store.recorded(table, "form-2") and not store.recorded(other, "form-1")
        with pytest.raises(TableNotFound):
            store.recorded("ZZZZZ", "form-1")
