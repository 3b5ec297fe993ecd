"""python -m host_tools uf2 [--sources PATH] [--out FILE]

Builds the board's UF2: MicroPython v1.28.0 for the Raspberry Pi Pico (RPI_PICO) with the
firmware frozen into it (manifest.py), with Debian's arm-none-eabi toolchain. Writes
dist/chessboard-<version>.uf2, its build record dist/chessboard-<version>.json (what went
in: the MicroPython commit, the toolchain, a digest of every frozen file) and
dist/NOTICE.txt (the licences of what the image carries), and prints the UF2's path. A
maker copies the UF2 onto a Pico held in BOOTSEL mode (or `update`s a board): nothing else
is needed. The repository ships the image built so; this command makes it again.

MicroPython's sources, in this order:
  --sources PATH, or the environment's MPSRC_HOME: a MicroPython git checkout at the tag
    v1.28.0 with the rp2 port's submodules, or the source archive
    micropython-1.28.0-rp2-src.tar.xz (the file, or a folder holding it);
  else build/uf2/micropython, cloned the first time the way MicroPython's own docs build
    the rp2 port: git clone at the tag, then `make -C ports/rp2 submodules` (about 300 MB).
Whichever way, the sources are checked against the pinned commits (the tag's and each
submodule's) or the archive against its pinned SHA-256, and refused if they differ.

The build is reproducible: the same firmware and sources give the same UF2, byte for byte,
wherever the repository lies (MicroPython's version string and every build date are fixed
to the release: MICROPY_GIT_TAG, SOURCE_DATE_EPOCH; the image holds no path). The first
build compiles MicroPython (3-5 minutes on two cores); after that only what changed is made
again, and a firmware built before is taken from the cache (build/uf2/cache) at once.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from host_tools import version as V

ROOT = V.ROOT
DIST = ROOT / "dist"
WORK = ROOT / "build" / "uf2"
UNPACKED = WORK / "mp"  # the archive unpacked, built in place (make rebuilds what changed)
CLONE = WORK / "micropython"  # MicroPython's repository, cloned when no sources are given
STAGE = WORK / "stage"  # the copy of the tree that the manifest reads
CACHE = WORK / "cache"

# The pinned sources: MicroPython's release and the submodules the rp2 port builds with.
MICROPYTHON_URL = "https://github.com/micropython/micropython.git"
TAG = "v1.28.0"
COMMIT = "e0e9fbb17ed6fd06bb76e266ae554784c9c80804"
SUBMODULES = {
    "lib/pico-sdk": "a1438dff1d38bd9c65dbd693f0e5db4b9ae91779",
    "lib/tinyusb": "aa0fc2e08f1c2dd6f026a431e8989357fbb4c5bf",
    "lib/micropython-lib": "8380c7bb8f9e5e5260e9539156742925e00366b2",
    "lib/mbedtls": "107ea89daaefb9867ea9121002fbbdf926780e98",
}
ARCHIVE = "micropython-1.28.0-rp2-src.tar.xz"
# The archive: the tag's tree with those submodules, trimmed to what ports/rp2 uses.
ARCHIVE_SHA256 = "84a9d261d39d450a86b886182f313ecc8f017402454bae629695c2092d293cf5"
SOURCE_DATE_EPOCH = "1775481169"  # the tag's commit time (2026-04-06): every date in the image

FLASH_IMAGE_MAX = 655360  # RPI_PICO: the filesystem takes the last 1,408 KB of the 2 MB
TOOLS = ("arm-none-eabi-gcc", "cmake", "make")
DEBIAN = "gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib cmake build-essential"
# Where the emulator watches this build (its GC pauses and faults: the chip tests).
HOOKS = ("HardFault_Handler", "gc_collect", "m_malloc_fail", "nlr_jump_fail")
KEEP = 4  # builds kept in the cache (about 1.2 MB each)

# What the image carries besides our firmware, and where each says its licence. Whole
# licence files, or (for libraries whose notice is in their source) that file's first
# comment.
NOTICES = (
    ("MicroPython", "LICENSE", "MIT"),
    ("Raspberry Pi Pico SDK (lib/pico-sdk)", "lib/pico-sdk/LICENSE.TXT", "BSD-3-Clause"),
    ("TinyUSB (lib/tinyusb)", "lib/tinyusb/LICENSE", "MIT"),
    ("micropython-lib (lib/micropython-lib: asyncio's friends, neopixel, onewire, dht)",
     "lib/micropython-lib/LICENSE", "MIT"),
    ("Mbed TLS (lib/mbedtls)", "lib/mbedtls/LICENSE", "Apache-2.0"),
    ("littlefs (lib/littlefs)", "lib/littlefs/lfs2.c", "BSD-3-Clause"),
    ("FatFs (lib/oofatfs)", "lib/oofatfs/ff.c", "FatFs (BSD-1-Clause style)"),
    ("uzlib (lib/uzlib)", "lib/uzlib/tinflate.c", "Zlib"),
    ("re1.5 (lib/re1.5)", "lib/re1.5/re1.5.h", "BSD-3-Clause"),
    ("libm (lib/libm, from musl and fdlibm)", "lib/libm/fdlibm.h", "MIT / fdlibm"),
)


class BuildError(RuntimeError):
    pass


# ----- the sources

class Sources:
    """Checked MicroPython sources: an archive to unpack, or a git checkout to build in."""

    def __init__(self, kind: str, path: Path):
        self.kind = kind  # "archive" or "checkout"
        self.path = path

    def __repr__(self):
        return f"Sources({self.kind}, {self.path})"


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _git(path: Path, *args: str) -> str | None:
    try:
        r = subprocess.run(["git", "-C", str(path), *args], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return r.stdout.strip() if r.returncode == 0 else None


def check_checkout(path: Path) -> None:
    """A MicroPython checkout at the pinned commit, with the pinned submodules checked
    out and nothing changed; BuildError saying what differs."""
    head = _git(path, "rev-parse", "HEAD")
    if head is None:
        raise BuildError(f"{path} is not a git checkout of MicroPython")
    if head != COMMIT:
        raise BuildError(f"{path} is at {head[:10]}, not MicroPython {TAG} ({COMMIT[:10]}): "
                         f"git -C {path} checkout {TAG}")
    for sub, want in SUBMODULES.items():
        got = _git(path / sub, "rev-parse", "HEAD") if (path / sub / ".git").exists() else None
        if got != want:
            raise BuildError(f"{path}'s {sub} is {'at ' + got[:10] if got else 'not checked out'}, not "
                             f"{want[:10]}: make -C {path}/ports/rp2 BOARD=RPI_PICO submodules")
    changed = _git(path, "status", "--porcelain", "--untracked-files=no", "--ignore-submodules=none")
    if changed:
        raise BuildError(f"{path} has local changes (git status): {changed.splitlines()[0].strip()}")


def check_archive(path: Path) -> None:
    got = _digest(path)
    if got != ARCHIVE_SHA256:
        raise BuildError(f"{path} is not the pinned {ARCHIVE} (SHA-256 {got[:16]}..., "
                         f"pinned {ARCHIVE_SHA256[:16]}...)")


def given(path: str | Path) -> Sources:
    """The sources at path (--sources, MPSRC_HOME), checked."""
    p = Path(path).expanduser()
    if p.is_dir() and (p / ARCHIVE).is_file():
        p = p / ARCHIVE
    if p.is_file():
        check_archive(p)
        return Sources("archive", p.resolve())
    if p.is_dir() and (p / "py" / "mpconfig.h").is_file():
        check_checkout(p)
        return Sources("checkout", p.resolve())
    raise BuildError(f"{path}: neither {ARCHIVE} (or a folder holding it) nor a MicroPython checkout")


def clone(dest: Path, say) -> Sources:
    """MicroPython's repository at the pinned tag with the rp2 port's submodules, as its
    docs build the port; checked."""
    if not (dest / ".git").exists():
        if shutil.which("git") is None:
            raise BuildError("cloning MicroPython needs git (Debian: git)")
        say(f"cloning MicroPython {TAG} into {dest} (once; then its rp2 port's submodules: about 300 MB)")
        tmp = dest.with_name(dest.name + ".partial")
        if tmp.exists():
            shutil.rmtree(tmp)
        tmp.parent.mkdir(parents=True, exist_ok=True)
        _run(["git", "clone", "--depth", "1", "--branch", TAG, MICROPYTHON_URL, str(tmp)], say)
        os.replace(tmp, dest)
    if any(_git(dest / sub, "rev-parse", "HEAD") != want for sub, want in SUBMODULES.items()):
        _run(["make", "-C", str(dest / "ports" / "rp2"), "BOARD=RPI_PICO", "submodules"], say)
    check_checkout(dest)
    return Sources("checkout", dest)


def tools_missing() -> str:
    missing = [t for t in TOOLS if shutil.which(t) is None]
    return f"the UF2 needs {', '.join(missing)}: install the Debian packages {DEBIAN}" if missing else ""


def locate(sources: str | Path | None = None) -> tuple[Sources | None, str]:
    """(checked sources, "") or (None, why the UF2 cannot be built here) without
    fetching anything: sources, else MPSRC_HOME, else a clone made before."""
    try:
        if sources is None:
            sources = os.environ.get("MPSRC_HOME") or None
        if sources is not None:
            found = given(sources)
        elif (CLONE / ".git").exists():
            check_checkout(CLONE)
            found = Sources("checkout", CLONE)
        else:
            return None, f"no MicroPython sources here (--sources, MPSRC_HOME, or {CLONE.relative_to(ROOT)})"
    except BuildError as e:
        return None, str(e)
    why = tools_missing()
    return (None, why) if why else (found, "")


# ----- the build

def frozen_files(version: str) -> dict[str, bytes]:
    """What the manifest freezes from this tree, path -> content, the version rewritten."""
    out = {"manifest.py": (ROOT / "manifest.py").read_bytes(),
           "main.py": (ROOT / "main.py").read_bytes()}
    for p in sorted((ROOT / "firmware").rglob("*.py")):
        out[p.relative_to(ROOT).as_posix()] = p.read_bytes()
    out["firmware/version.py"] = V.source(version).encode()
    return out


def toolchain() -> str:
    try:
        r = subprocess.run(["arm-none-eabi-gcc", "--version"], capture_output=True, text=True, timeout=30)
        return r.stdout.splitlines()[0].strip()
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return "unknown"


def key(files: dict[str, bytes], compiler: str) -> str:
    h = hashlib.sha256(b"chessboard uf2 2\0" + COMMIT.encode() + b"\0" + compiler.encode())
    for name in sorted(files):
        h.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    return h.hexdigest()[:20]


def _env() -> dict:
    """The environment of a reproducible build: MicroPython's version string and the
    compilers' dates (__DATE__, MICROPY_BUILD_DATE) fixed to the release, whatever the
    checkout or the day (a tree unpacked inside this repository would otherwise take this
    repository's commit as MicroPython's)."""
    return dict(os.environ, MICROPY_GIT_TAG=TAG, MICROPY_GIT_HASH=COMMIT[:10],
                SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH, LC_ALL="C", TZ="UTC")


def _run(args: list[str], say, cwd: Path | None = None) -> None:
    say("$ " + " ".join(args))
    r = subprocess.run(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       env=_env())
    if r.returncode:
        raise BuildError(f"{args[0]} failed ({r.returncode}):\n" + "\n".join(r.stdout.splitlines()[-40:]))


def _unpack(archive: Path, say) -> Path:
    stamp = UNPACKED / ".source-digest"
    if not (stamp.exists() and stamp.read_text() == ARCHIVE_SHA256):
        say(f"unpacking {archive.name}")
        if UNPACKED.exists():
            shutil.rmtree(UNPACKED)
        UNPACKED.mkdir(parents=True)
        _run(["tar", "-xJf", str(archive), "-C", str(UNPACKED)], say)
        stamp.write_text(ARCHIVE_SHA256)
    return UNPACKED


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


def _compile(tree: Path, say) -> Path:
    """MicroPython for RPI_PICO with the staged manifest; the firmware.bin. Its objects go
    to a folder of the tree's own under build/uf2 (a checkout given with --sources stays
    as it was, but for mpy-cross, which MicroPython builds in place)."""
    obj = WORK / ("obj-" + hashlib.sha256(str(tree).encode()).hexdigest()[:10])
    if not (tree / "mpy-cross" / "build" / "mpy-cross").exists():
        _run(["make", "-C", str(tree / "mpy-cross"), "-j2"], say)
    # The manifest goes inside CMAKE_ARGS: FROZEN_MANIFEST=... beside it would be dropped
    # and the build would silently freeze nothing.
    _run(["make", "-C", str(tree / "ports" / "rp2"), "BOARD=RPI_PICO", "BUILD=" + str(obj), "-j2",
          "CMAKE_ARGS=-DPICO_NO_PICOTOOL=1 -DMICROPY_FROZEN_MANIFEST=" + str(STAGE / "manifest.py")], say)
    return obj / "firmware.bin"


def notice(tree: Path) -> str:
    """dist/NOTICE.txt: the licences of the third-party code the image carries, from the
    sources it was built from."""
    out = ["Third-party notices of the board's UF2 (chessboard-<version>.uf2)",
           "",
           f"The UF2 is MicroPython {TAG} ({COMMIT}) for the Raspberry Pi Pico, built",
           "with the chess board's firmware frozen in. The firmware is this repository's own",
           "(MIT: LICENSE). MicroPython and the libraries it is built with carry the notices",
           "below, each as its source gives it. The image is linked with the toolchain's C",
           "library (newlib, BSD-style licences: libnewlib-arm-none-eabi's copyright file) and",
           "libgcc (GPL-3.0 with the GCC Runtime Library Exception, which asks no notice).",
           ""]
    for name, rel, spdx in NOTICES:
        p = tree / rel
        if not p.exists():
            raise BuildError(f"the sources have no {rel} (the notice of {name})")
        text = p.read_text(encoding="utf-8", errors="replace")
        if not Path(rel).name.upper().startswith("LICENSE"):
            text = _first_comment(text)
        out += ["=" * 78, f"{name}: {spdx} ({rel} in MicroPython's source tree)", "=" * 78, "",
                text.strip("\n"), ""]
    return "\n".join(out).rstrip("\n") + "\n"


def _ours() -> str:
    """The firmware's own licence, first in the notices."""
    return ("=" * 78 + "\nThe chess board's firmware (frozen into the image): MIT (LICENSE)\n" + "=" * 78
            + "\n\n" + (ROOT / "LICENSE").read_text().split("\n---", 1)[0].strip("\n") + "\n\n")


def _first_comment(text: str) -> str:
    lines = text.splitlines()
    if lines and lines[0].lstrip().startswith("//"):
        block = []
        for ln in lines:
            if not ln.lstrip().startswith("//"):
                break
            block.append(ln)
        return "\n".join(block)
    # The licence's block: the first /* ... */ that names a copyright (oofatfs's opens with
    # a pointer to its fork first).
    rest = text
    while "/*" in rest:
        start = rest.index("/*")
        end = rest.index("*/", start) + 2
        block = rest[start:end]
        if "opyright" in block:
            return block
        rest = rest[end:]
    return text[:2000]


def build(out: Path | None = None, say=print, version: str | None = None,
          sources: str | Path | None = None, fetch: bool = False) -> Path:
    """The UF2 of this tree's firmware (built, or taken from the cache), copied to out
    (default dist/chessboard-<version>.uf2, with its record and the notices, older images
    there removed); its record beside it (.json: the emulator's hooks among it). version:
    what `hello ... fw=` says (default: this tree's, host_tools/version.py). sources: as
    --sources (default MPSRC_HOME, else a clone; fetch: clone it when there is none)."""
    found, why = locate(sources)
    if found is None and fetch and sources is None and not os.environ.get("MPSRC_HOME") \
            and not (CLONE / ".git").exists():
        why = tools_missing()
        if not why:
            found = clone(CLONE, say)
    if found is None:
        raise BuildError(why)
    version = version or V.describe()
    to_dist = out is None
    out = Path(out) if out else DIST / f"chessboard-{version}.uf2"
    WORK.mkdir(parents=True, exist_ok=True)
    with open(WORK / "lock", "w") as lock:
        try:
            import fcntl

            fcntl.flock(lock, fcntl.LOCK_EX)  # test workers and a developer's shell: one builds
        except ImportError:
            pass
        files = frozen_files(version)
        compiler = toolchain()
        k = key(files, compiler)
        cached = CACHE / f"{k}.uf2"
        tree = found.path if found.kind == "checkout" else None
        if not cached.exists():
            tree = tree or _unpack(found.path, say)
            _stage(files)
            binary = _compile(tree, say)
            size = binary.stat().st_size
            if size >= FLASH_IMAGE_MAX:
                raise BuildError(f"the image is {size} bytes: it must stay below {FLASH_IMAGE_MAX}, "
                                 "where the filesystem (journal, settings) begins")
            CACHE.mkdir(parents=True, exist_ok=True)
            tmp = cached.with_suffix(".tmp")
            _run([sys.executable, str(tree / "tools" / "uf2conv.py"), "-f", "RP2040", "-b",
                  "0x10000000", "-c", "-o", str(tmp), str(binary)], say)
            record = {
                "version": version,
                "micropython": {"tag": TAG, "commit": COMMIT, "submodules": SUBMODULES},
                "toolchain": compiler,
                "source_date_epoch": int(SOURCE_DATE_EPOCH),
                "image_bytes": size,
                "uf2_sha256": _digest(tmp),
                "frozen": {name: hashlib.sha256(data).hexdigest() for name, data in sorted(files.items())},
                "hooks": hooks(binary.with_suffix(".elf")),
            }
            cached.with_suffix(".json").write_text(json.dumps(record, indent=1) + "\n")
            cached.with_suffix(".notice").write_text(notice(tree))
            os.replace(tmp, cached)
            for old in sorted(CACHE.glob("*.uf2"), key=lambda p: p.stat().st_mtime)[:-KEEP]:
                for suffix in (".uf2", ".json", ".notice"):
                    old.with_suffix(suffix).unlink(missing_ok=True)
        out.parent.mkdir(parents=True, exist_ok=True)
        if to_dist:
            for old in DIST.glob("chessboard-*"):
                if old.name not in (out.name, out.with_suffix(".json").name):
                    old.unlink()
            (DIST / "NOTICE.txt").write_text(_ours() + cached.with_suffix(".notice").read_text())
        if out.resolve() != cached.resolve():
            shutil.copyfile(cached, out)
            shutil.copyfile(cached.with_suffix(".json"), out.with_suffix(".json"))
    return out


# ----- the committed image

def record(uf2: Path) -> dict:
    """The build record beside a UF2 (its .json)."""
    return json.loads(Path(uf2).with_suffix(".json").read_text())


def shipped() -> Path | None:
    """The UF2 the repository ships (dist/), if there is one."""
    found = sorted(DIST.glob("chessboard-*.uf2"))
    return found[0] if len(found) == 1 else None


def stale(uf2: Path, version: str | None = None) -> list[str]:
    """What the UF2's record says was frozen and this tree would freeze differently: the
    files (and the version) that changed since it was built; [] when it is this tree's."""
    rec = record(uf2)
    version = version or V.describe()
    now = {name: hashlib.sha256(data).hexdigest() for name, data in frozen_files(version).items()}
    was = rec["frozen"]
    out = sorted(n for n in set(now) | set(was) if now.get(n) != was.get(n))
    if rec["version"] != version:
        out.insert(0, f"the version ({rec['version']} built, {version} now)")
    return out


def current(say=print) -> Path:
    """The shipped UF2 for a benchmark or a tool; a note when this tree's firmware has
    changed since it was built (`python -m host_tools uf2` makes it again)."""
    uf2 = shipped()
    if uf2 is None:
        raise BuildError("no UF2 in dist/: python -m host_tools uf2 builds it")
    changed = stale(uf2)
    if changed:
        say(f"note: {uf2.name} is not this tree's firmware ({', '.join(changed[:3])} changed): "
            "./run uf2 builds it again")
    return uf2


def image_size(uf2: Path) -> int:
    """The firmware image's size in bytes (its UF2 blocks carry 256 bytes each)."""
    return (Path(uf2).stat().st_size // 512) * 256


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools uf2", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sources", help=f"MicroPython's sources: a checkout at {TAG} with the rp2 port's "
                                      f"submodules, or {ARCHIVE} (default: MPSRC_HOME, else a clone "
                                      "in build/uf2/micropython, made the first time)")
    ap.add_argument("--out", help="where to write the UF2 (default dist/chessboard-<version>.uf2, "
                                  "with its record and dist/NOTICE.txt)")
    ap.add_argument("--quiet", action="store_true", help="print only the UF2's path")
    a = ap.parse_args(argv)
    say = (lambda s: None) if a.quiet else (lambda s: print(s, file=sys.stderr, flush=True))
    try:
        path = build(Path(a.out) if a.out else None, say=say, sources=a.sources, fetch=True)
    except BuildError as e:
        print("python -m host_tools uf2: error:", str(e).splitlines()[0] if a.quiet else e, file=sys.stderr)
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
