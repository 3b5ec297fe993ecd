"""The device is a composition root and the commands are bound to parts (issue 49), read
from the sources (ast): Device builds the parts, hands each its collaborators and runs
the loop's steps - at most 120 lines and 14 attributes, and no write into another part's
field; every command's row names a method of the part that does it, and commands.py
reaches nothing through a device; the record commits in one place, the end of a step."""
import ast
import re
from pathlib import Path

from firmware.app import commands
from firmware.app.commands import TABLE
from firmware.app.controls import Controls
from firmware.app.events import GameEvents
from firmware.app.games import Games
from firmware.app.power import Power
from firmware.app.record import Record
from firmware.app.selftest import SelfTest
from firmware.app.settings import Config
from firmware.clock.clock import ChessClock
from firmware.match import Match

CPYTHON_ONLY = "reads the sources with ast and pathlib"  # (its tests are not run again in micropython)

ROOT = Path(__file__).resolve().parents[2]
DEVICE = ROOT / "firmware/app/device.py"
PARTS = {"record": Record, "games": Games, "clock": ChessClock, "match": Match, "events": GameEvents,
         "controls": Controls, "config": Config, "selftest": SelfTest, "power": Power}


def _device_class():
    tree = ast.parse(DEVICE.read_text())
    return next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Device")


def _assigned(node):
    for n in ast.walk(node):
        if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            for t in (n.targets if isinstance(n, ast.Assign) else [n.target]):
                yield from _targets(t)


def _targets(t):
    if isinstance(t, (ast.Tuple, ast.List)):
        for e in t.elts:
            yield from _targets(e)
    else:
        yield t


def test_device_is_at_most_120_lines():
    n = len(DEVICE.read_text().splitlines())
    assert n <= 120, f"firmware/app/device.py has {n} lines"


def test_device_has_at_most_14_attributes():
    names = {t.attr for t in _assigned(_device_class())
             if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"}
    assert len(names) <= 14, sorted(names)


def test_device_writes_no_other_parts_field():
    for t in _assigned(_device_class()):
        if isinstance(t, ast.Attribute):  # self.x = ... only: never part.x = ... nor self.part.x = ...
            assert isinstance(t.value, ast.Name) and t.value.id == "self", \
                f"device.py:{t.lineno} writes {ast.unparse(t)}"


def test_every_command_names_a_method_of_its_part():
    for word, (part, method, kinds, keys) in TABLE.items():
        assert part in PARTS, (word, part)
        assert callable(getattr(PARTS[part], method, None)), f"{word}: {PARTS[part].__name__} has no {method}"
        assert kinds == "*" or all(k in commands.READ for k in kinds), (word, kinds)


def test_commands_reach_nothing_through_a_device():
    text = (ROOT / "firmware/app/commands.py").read_text()
    assert not re.findall(r"\bdev\.", text)
    assert not [n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Name) and n.id in ("dev", "device")]


def test_the_record_commits_in_one_place_the_end_of_a_step():
    sites = []
    for p in sorted((ROOT / "firmware").rglob("*.py")):
        for n in ast.walk(ast.parse(p.read_text())):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "commit" \
                    and ast.unparse(n.func.value).endswith("record"):
                sites.append(f"{p.relative_to(ROOT)}:{n.lineno}")
    assert len(sites) == 1 and sites[0].startswith("firmware/app/device.py"), sites
