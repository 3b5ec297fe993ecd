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
    # tests/test_web_page.py and test_arbiter_page.py write them at every run.
    for name in ("page.png", "single.png", "phone.png", "arbiter.png", "hall.png", "standings.png"):
        data = (ROOT / "docs" / "img" / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10000, name
