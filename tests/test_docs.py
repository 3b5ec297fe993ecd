"""The docs hold together: README stays short (what it is, the two commands, a picture,
where to go next), every link and picture in README.md, docs/ and hardware/README.md names
a file that is there, and each reader has a page."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "hardware" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
READERS = ("maker", "player", "access", "broadcaster", "arbiter", "developer")


def test_readme_is_short_and_sends_each_reader_to_a_page():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 200
    assert "./run test" in readme and "![" in readme
    for reader in READERS:
        assert f"(docs/{reader}.md)" in readme, reader


def test_every_link_and_picture_names_a_file_that_is_there():
    for page in PAGES:
        text = page.read_text()
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if "://" in target or target.startswith("mailto:"):
                continue
            assert (page.parent / target).exists(), (page.name, target)


def test_the_pictures_are_the_pages_the_browser_tests_took():
    # tests/host/test_web_page.py and test_arbiter_page.py write them at every run.
    for name in ("page.png", "single.png", "phone.png", "arbiter.png", "hall.png", "standings.png"):
        data = (ROOT / "docs" / "img" / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10000, name


# ----- the commands the docs show: one form, held to the command line

DOCS = [ROOT / "README.md", ROOT / "hardware" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# Any other way to start a tool (every doc says ./run; the one-line error's own format,
# `python -m host_tools <command>: error`, is what the tools print, not a command).
OTHER_FORMS = re.compile(r"\.venv/bin/|python3? -m (?:host_tools|hardware)(?! <command>)|python3? bench/"
                         r"|mpremote connect|serial\.tools\.miniterm")


def _forms():
    """Every ./run command line in the docs (code spans and code blocks): (page, words)."""
    out = []
    for page in DOCS:
        text = page.read_text()
        spans = re.findall(r"```[a-z]*\n(.*?)```", text, re.S)
        lines = [ln for block in spans for ln in block.splitlines()]
        rest = re.sub(r"```[a-z]*\n.*?```", "", text, flags=re.S)
        lines += [s.replace("\n", " ") for s in re.findall(r"`([^`]+)`", rest)]
        for line in lines:
            m = re.match(r"\s*(?:[A-Z_]+=\S+\s+)*\./run(\s[^#]*)?(?:#.*)?$", line)
            if m:
                out.append((page.relative_to(ROOT), (m.group(1) or "").split()))
    return out


def _command(words):
    """The ./run words that pick the program: the command, play's game, sim's --pair."""
    if not words or words[0].startswith("-"):
        return ["demo"]
    cmd = [words[0].rstrip(",.;:")]
    if cmd[0] == "play" and len(words) > 1 and not words[1].startswith("-"):
        cmd.append(words[1])
    if cmd[0] == "sim" and "--pair" in words:
        cmd.append("--pair")
    return cmd


def test_every_doc_runs_the_tools_one_way():
    for page in DOCS:
        for n, line in enumerate(page.read_text().splitlines(), 1):
            assert not OTHER_FORMS.search(line), f"{page.relative_to(ROOT)}:{n} starts a tool another way " \
                                                 f"than ./run: {line.strip()[:100]}"


def test_the_docs_command_forms_are_the_command_lines():
    # Each command the docs show, as `./run` runs it (RUN_PRINT=1: nothing set up or run),
    # answers --help, and every option the docs give it is in that help.
    import os
    import subprocess
    import sys

    forms = _forms()
    assert len(forms) > 30, "the docs' ./run commands were not found"
    helps = {}
    for page, words in forms:
        cmd = tuple(_command(words))
        if cmd[0].startswith("<"):
            continue  # `./run <command>`: the form itself
        if cmd not in helps:
            argv = subprocess.run(["bash", str(ROOT / "run"), *cmd, "--help"], cwd=ROOT, capture_output=True,
                                  text=True, timeout=60, env=dict(os.environ, RUN_PRINT="1"))
            assert argv.returncode == 0, (page, cmd, argv.stderr)
            program = argv.stdout.splitlines()
            assert program[0] == "python", program
            r = subprocess.run([sys.executable, *program[1:]], cwd=ROOT, capture_output=True, text=True, timeout=120)
            assert r.returncode == 0 and r.stdout.strip(), (page, "./run " + " ".join(cmd) + " --help", r.stderr[-2000:])
            helps[cmd] = r.stdout
        for option in re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", " ".join(words)):
            assert option in helps[cmd], f"{page}: ./run {' '.join(words)}: {option} is not an option of it"


def test_run_itself_answers_help_where_it_is_set_up(processes):
    # On a set-up clone (after ./run test, as on CI) ./run with --help sets up nothing more.
    venv = ROOT / ".venv"
    stamp = venv / ".installed-all"
    if not stamp.exists() or stamp.stat().st_mtime < (ROOT / "pyproject.toml").stat().st_mtime:
        import pytest

        pytest.skip("this checkout's .venv is not set up for its pyproject.toml (./run test sets it up)")
    for cmd in (["sim"], ["update"], ["uf2"], ["hardware.power"]):
        r = processes.run(["bash", str(ROOT / "run"), *cmd, "--help"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)  # (./run, then its python: both ended on a timeout)
        assert r.returncode == 0 and "usage" in r.stdout.lower(), (cmd, r.stderr[-1000:])


def test_the_developers_test_areas_name_test_files_that_are_there():
    text = (ROOT / "docs" / "developer.md").read_text()
    table = text.split("| area | its tests |", 1)[1].split("\n\n", 1)[0]
    for name in re.findall(r"`((?:tests/)?(?:(?:firmware|host|hardware|e2e)/)?test_[\w*]+\.py)`", table):
        pattern = name if name.startswith("tests/") else None
        if pattern is None:
            found = list((ROOT / "tests").rglob(name))
        else:
            found = list(ROOT.glob(pattern))
        assert found, name


def test_the_tools_outside_their_venv_say_what_to_run_in_one_line():
    # A Python without the tools' packages (here: site-packages turned off) gets one line
    # naming ./run, and no traceback.
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-S", "-m", "host_tools", "relay", "--help"], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert r.stderr.strip().count("\n") == 0 and "run ./run relay" in r.stderr, r.stderr
