"""python -m host_tools uf2 [--out FILE]

Builds the board's UF2: MicroPython v1.28.0 for the Raspberry Pi Pico (RPI_PICO) with the
firmware frozen into it (manifest.py), from the pinned sources in ../shared/mpsrc, with
Debian's arm-none-eabi toolchain. Writes build/chessboard-<version>.uf2 (or --out) and
prints its path. A maker copies it onto a Pico held in BOOTSEL mode: nothing else is needed.

The first build unpacks the sources and compiles MicroPython (3-5 minutes on two cores);
after that only what changed is made again, and a firmware built before is taken from the
cache (build/uf2/cache, keyed by the digests of the firmware and of the sources) at once.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

from host_tools import version as V

ROOT = V.ROOT
WORK = ROOT / "build" / "uf2"
TREE = WORK / "mp"  # the unpacked sources, built in place (make rebuilds what changed)
STAGE = WORK / "stage"  # the copy of the tree that the manifest reads
CACHE = WORK / "cache"
ARCHIVE = "micropython-1.28.0-rp2-src.tar.xz"
FLASH_IMAGE_MAX = 655360  # RPI_PICO: the filesystem takes the last 1,408 KB of the 2 MB
TOOLS = ("arm-none-eabi-gcc", "cmake", "make")
DEBIAN = "gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib cmake build-essential"
# Where the emulator watches this build (its GC pauses and faults: ../shared/rp2emu).
HOOKS = ("HardFault_Handler", "gc_collect", "m_malloc_fail", "nlr_jump_fail")
KEEP = 4  # builds kept in the cache (about 1.2 MB each)


class BuildError(RuntimeError):
    pass


def locate() -> tuple[Path | None, str]:
    """(the sources' archive, "") or (None, why the UF2 cannot be built here)."""
    candidates = []
    if os.environ.get("MPSRC_HOME"):
        candidates.append(Path(os.environ["MPSRC_HOME"]))
    candidates += [ROOT.parent / "shared" / "mpsrc", Path("/work/shared/mpsrc")]
    archive = next((c / ARCHIVE for c in candidates if (c / ARCHIVE).exists()), None)
    if archive is None:
        return None, f"the MicroPython sources ({ARCHIVE}) are not here: set MPSRC_HOME"
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        return None, f"the UF2 needs {', '.join(missing)}: install the Debian packages {DEBIAN}"
    return archive, ""


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def frozen_files(version: str) -> dict[str, bytes]:
    """What the manifest freezes from this tree, path -> content, the version rewritten."""
    out = {"manifest.py": (ROOT / "manifest.py").read_bytes(),
           "main.py": (ROOT / "main.py").read_bytes()}
    for p in sorted((ROOT / "firmware").rglob("*.py")):
        out[str(p.relative_to(ROOT))] = p.read_bytes()
    out["firmware/version.py"] = V.source(version).encode()
    return out


def key(files: dict[str, bytes], source_digest: str) -> str:
    h = hashlib.sha256(b"chessboard uf2 1\0" + source_digest.encode())
    for name in sorted(files):
        h.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    return h.hexdigest()[:20]


def _run(args: list[str], say, cwd: Path | None = None) -> None:
    say("$ " + " ".join(args))
    r = subprocess.run(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode:
        raise BuildError(f"{args[0]} failed ({r.returncode}):\n" + "\n".join(r.stdout.splitlines()[-40:]))


def _unpack(archive: Path, digest: str, say) -> None:
    stamp = TREE / ".source-digest"
    if stamp.exists() and stamp.read_text() == digest:
        return
    say(f"unpacking {archive.name}")
    if TREE.exists():
        shutil.rmtree(TREE)
    TREE.mkdir(parents=True)
    _run(["tar", "-xJf", str(archive), "-C", str(TREE)], say)
    stamp.write_text(digest)


def _stage(files: dict[str, bytes]) -> None:
    """The manifest's tree: files written only where they differ (make and the manifest's
    compiler then redo only those), files no longer in the firmware removed."""
    want = {STAGE / name: data for name, data in files.items()}
    if STAGE.exists():
        for p in STAGE.rglob("*.py"):
            if p not in want:
                p.unlink()
    for p, data in want.items():
        if not p.exists() or p.read_bytes() != data:
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(data)


def hooks(elf: Path) -> str:
    """The emulator's RP2EMU_HOOKS for this build: its watched functions' addresses."""
    r = subprocess.run(["arm-none-eabi-nm", str(elf)], capture_output=True, text=True, check=True)
    found = {}
    for line in r.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] in HOOKS:
            found[parts[2]] = int(parts[0], 16) & ~1  # the Thumb bit is not in the PC
    missing = [h for h in HOOKS if h not in found]
    if missing:
        raise BuildError(f"{elf.name} has no {', '.join(missing)}")
    return ",".join(f"{h}=0x{found[h]:08x}" for h in HOOKS)


def _compile(say) -> Path:
    """MicroPython for RPI_PICO with the staged manifest; the firmware.bin."""
    if not (TREE / "mpy-cross" / "build" / "mpy-cross").exists():
        _run(["make", "-C", str(TREE / "mpy-cross"), "-j2"], say)
    # The manifest goes inside CMAKE_ARGS: FROZEN_MANIFEST=... beside it would be dropped
    # (../shared/mpsrc/README.md) and the build would silently freeze nothing.
    _run(["make", "-C", str(TREE / "ports" / "rp2"), "BOARD=RPI_PICO", "-j2",
          "CMAKE_ARGS=-DPICO_NO_PICOTOOL=1 -DMICROPY_FROZEN_MANIFEST=" + str(STAGE / "manifest.py")], say)
    return TREE / "ports" / "rp2" / "build-RPI_PICO" / "firmware.bin"


def build(out: Path | None = None, say=print, version: str | None = None) -> Path:
    """The UF2 of this tree's firmware (built, or taken from the cache), copied to out
    (default build/chessboard-<version>.uf2); its hooks file beside it (.hooks). version:
    what `hello ... fw=` says (default: this tree's, host_tools/version.py)."""
    archive, why = locate()
    if archive is None:
        raise BuildError(why)
    version = version or V.describe()
    out = Path(out) if out else ROOT / "build" / f"chessboard-{version}.uf2"
    WORK.mkdir(parents=True, exist_ok=True)
    with open(WORK / "lock", "w") as lock:
        try:
            import fcntl

            fcntl.flock(lock, fcntl.LOCK_EX)  # test workers and a developer's shell: one builds
        except ImportError:
            pass
        source_digest = _digest(archive)
        files = frozen_files(version)
        k = key(files, source_digest)
        cached = CACHE / f"{k}.uf2"
        if not cached.exists():
            _unpack(archive, source_digest, say)
            _stage(files)
            binary = _compile(say)
            size = binary.stat().st_size
            if size >= FLASH_IMAGE_MAX:
                raise BuildError(f"the image is {size} bytes: it must stay below {FLASH_IMAGE_MAX}, "
                                 "where the filesystem (journal, settings) begins")
            CACHE.mkdir(parents=True, exist_ok=True)
            tmp = cached.with_suffix(".tmp")
            _run([sys.executable, str(TREE / "tools" / "uf2conv.py"), "-f", "RP2040", "-b",
                  "0x10000000", "-c", "-o", str(tmp), str(binary)], say)
            cached.with_suffix(".hooks").write_text(hooks(binary.with_suffix(".elf")))
            cached.with_suffix(".size").write_text(str(size))
            os.replace(tmp, cached)
            for old in sorted(CACHE.glob("*.uf2"), key=lambda p: p.stat().st_mtime)[:-KEEP]:
                for suffix in (".uf2", ".hooks", ".size"):
                    old.with_suffix(suffix).unlink(missing_ok=True)
        out.parent.mkdir(parents=True, exist_ok=True)
        if out.resolve() != cached.resolve():
            shutil.copyfile(cached, out)
            shutil.copyfile(cached.with_suffix(".hooks"), out.with_suffix(".hooks"))
    return out


def image_size(uf2: Path) -> int:
    """The firmware image's size in bytes (its UF2 blocks carry 256 bytes each)."""
    return (Path(uf2).stat().st_size // 512) * 256


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools uf2", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", help="where to write the UF2 (default build/chessboard-<version>.uf2)")
    ap.add_argument("--quiet", action="store_true", help="print only the UF2's path")
    a = ap.parse_args(argv)
    say = (lambda s: None) if a.quiet else (lambda s: print(s, file=sys.stderr, flush=True))
    try:
        path = build(Path(a.out) if a.out else None, say=say)
    except BuildError as e:
        print("uf2 failed:", e, file=sys.stderr)
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
