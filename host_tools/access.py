"""The board's settings for blind and deaf players, in plain words: for a sighted assistant
or for the player himself with a screen reader. Every answer is a sentence of its own,
the board's refusals are said in its words (never percent-encoded), and nothing is told
by colour or by place on the screen alone.

    python -m host_tools access [PORT]                      # asks what to change, line by line
    python -m host_tools access [PORT] blind=left speech=it # changes these, then says all
    python -m host_tools access --table                     # the patterns' table of docs/access.md

PORT is the board's serial port (COM3, /dev/ttyACM0); without it the one Pico plugged in.
"""
from __future__ import annotations

import argparse
import sys
import time

from firmware.access import numbercode as N
from firmware.access import patterns as P
from host_tools.protocol import GREETING, DeviceParser, Status

# What each event means, for the docs' table and the practice's names (firmware/access/
# patterns.py: EVENTS, in its order; a test holds the two together).
MEANINGS = {
    "opponent_moved": "the opponent completed his move: your clock runs",
    "move_done": "your move was completed",
    "threshold_1": "the first time threshold (10 minutes left by default)",
    "threshold_2": "the second threshold (5 minutes)",
    "threshold_3": "the third threshold (1 minute)",
    "threshold_4": "the fourth threshold (10 seconds): it may cut an answer short",
    "tick": "each second of the last five",
    "your_flag": "your flag fell",
    "opponent_flag": "the opponent's flag fell",
    "illegal": "your illegal move, or your press without a move (7.5)",
    "opponent_illegal": "the opponent pressed without a move (7.5.3)",
    "board_differs": "the board differs from the game",
    "time_added": "time given to you: a penalty of the opponent's (7.5.5)",
    "period": "a new period: its time added",
    "draw_offer": "the opponent offers a draw (9.1.2)",
    "claim": "a draw claimed: the arbiter decides (9.2, 9.3)",
    "game_over": "the game is over",
    "pause": "the arbiter paused the clock (6.11.2)",
    "resume": "the arbiter's pause is over: the clock runs again",
    "message": "the arbiter's message (on a deaf player's face)",
    "opponent_touched": "the sighted player touched a piece on his own board (D.2.10)",
    "menu": "the clock's menu: a setting's name and value follow",
    "right": "practice: your answer was right",
    "wrong": "practice: your answer was wrong",
}
# What the board's voice says in its access menu and practice (firmware/access/phrases.py:
# MENU_WORDS and each event's name), recorded on the card by host_tools/audiocard.py.
SPOKEN = {
    "en": {"menu": "access menu", "blind": "blind", "deaf": "deaf", "ears": "own earphone", "volume": "volume",
           "speech": "voice", "code": "number code", "normal": "normal pulse", "strong": "strong pulse",
           "threshold": "time signal", "patterns": "practise the signals", "numbers": "practise numbers",
           "your_time": "your time", "quiz": "quiz", "on": "on", "off": "off", "lang_en": "English",
           "lang_it": "Italian", "lang_fide": "German, FIDE style", "tactileclock": "Tactile Clock",
           "taptic": "Taptic", "left": "left seat", "right": "right seat", "seat": "the menu is yours",
           "closed": "menu closed, settings kept", "right_answer": "right", "wrong_answer": "wrong, it was"},
    "it": {"menu": "menu accessibilità", "blind": "non vedente", "deaf": "non udente", "ears": "auricolare",
           "volume": "volume", "speech": "voce", "code": "codice dei numeri", "normal": "impulso normale",
           "strong": "impulso forte", "threshold": "segnale di tempo", "patterns": "esercizio dei segnali",
           "numbers": "esercizio dei numeri", "your_time": "il tuo tempo", "quiz": "quiz", "on": "sì",
           "off": "no", "lang_en": "inglese", "lang_it": "italiano", "lang_fide": "tedesco, stile FIDE",
           "tactileclock": "Tactile Clock", "taptic": "Taptic", "left": "posto a sinistra",
           "right": "posto a destra", "seat": "il menu è tuo", "closed": "menu chiuso, impostazioni salvate",
           "right_answer": "giusto", "wrong_answer": "sbagliato, era"},
    "fide": {"menu": "Menü für Blinde", "blind": "blind", "deaf": "gehörlos", "ears": "eigener Kopfhörer",
             "volume": "Lautstärke", "speech": "Stimme", "code": "Zahlencode", "normal": "normaler Impuls",
             "strong": "starker Impuls", "threshold": "Zeitsignal", "patterns": "Signale üben",
             "numbers": "Zahlen üben", "your_time": "deine Zeit", "quiz": "Quiz", "on": "ein", "off": "aus",
             "lang_en": "Englisch", "lang_it": "Italienisch", "lang_fide": "Deutsch, FIDE-Stil",
             "tactileclock": "Tactile Clock", "taptic": "Taptic", "left": "linker Platz",
             "right": "rechter Platz", "seat": "das Menü gehört dir", "closed": "Menü zu, gespeichert",
             "right_answer": "richtig", "wrong_answer": "falsch, es war"},
}
EVENT_NAMES = {
    "en": {"opponent_moved": "your clock runs", "move_done": "your move is completed",
           "threshold_1": "first time signal", "threshold_2": "second time signal",
           "threshold_3": "third time signal", "threshold_4": "last ten seconds", "tick": "a second",
           "your_flag": "your flag", "opponent_flag": "the opponent's flag", "illegal": "your illegal move",
           "opponent_illegal": "the opponent's illegal press", "board_differs": "the board differs",
           "time_added": "time given to you", "period": "new period", "draw_offer": "draw offer",
           "claim": "draw claim", "game_over": "game over", "pause": "arbiter's pause",
           "resume": "the clock runs again", "message": "arbiter's message",
           "opponent_touched": "the opponent touched a piece", "menu": "menu", "right": "right answer",
           "wrong": "wrong answer"},
    "it": {"opponent_moved": "il tuo orologio corre", "move_done": "la tua mossa è completata",
           "threshold_1": "primo segnale di tempo", "threshold_2": "secondo segnale di tempo",
           "threshold_3": "terzo segnale di tempo", "threshold_4": "ultimi dieci secondi", "tick": "un secondo",
           "your_flag": "la tua bandierina", "opponent_flag": "la bandierina dell'avversario",
           "illegal": "la tua mossa illegale", "opponent_illegal": "pressione illegale dell'avversario",
           "board_differs": "la scacchiera è diversa", "time_added": "tempo aggiunto a te",
           "period": "nuovo periodo", "draw_offer": "offerta di patta", "claim": "richiesta di patta",
           "game_over": "partita finita", "pause": "pausa dell'arbitro", "resume": "l'orologio riparte",
           "message": "messaggio dell'arbitro", "opponent_touched": "l'avversario ha toccato un pezzo",
           "menu": "menu", "right": "risposta giusta", "wrong": "risposta sbagliata"},
    "fide": {"opponent_moved": "deine Uhr läuft", "move_done": "dein Zug ist beendet",
             "threshold_1": "erstes Zeitsignal", "threshold_2": "zweites Zeitsignal",
             "threshold_3": "drittes Zeitsignal", "threshold_4": "letzte zehn Sekunden", "tick": "eine Sekunde",
             "your_flag": "dein Blättchen", "opponent_flag": "Blättchen des Gegners",
             "illegal": "dein regelwidriger Zug", "opponent_illegal": "regelwidriger Uhrdruck des Gegners",
             "board_differs": "das Brett weicht ab", "time_added": "Zeit für dich", "period": "neue Periode",
             "draw_offer": "Remisangebot", "claim": "Remisreklamation", "game_over": "Partie zu Ende",
             "pause": "Pause des Schiedsrichters", "resume": "die Uhr läuft wieder",
             "message": "Nachricht des Schiedsrichters", "opponent_touched": "der Gegner berührte eine Figur",
             "menu": "Menü", "right": "richtige Antwort", "wrong": "falsche Antwort"},
}


def spoken(word: str, lang: str) -> str | None:
    """The words of a menu or practice phrase (None: not one of them)."""
    if word.startswith("event_"):
        return EVENT_NAMES[lang][word[6:]]
    return SPOKEN[lang].get(word)


# The vocabulary of pulses (patterns.py, numbercode.py): its letter, length and use.
PULSES = (
    ("s", P.SHORT, "an event's short pulse"), ("l", P.LONG, "an event's long pulse"),
    ("t", P.TICK, "a tick of the last five seconds"), ("r", P.RATTLE, "a pulse of the rattle that says an answer was cut"),
    (".", N.SHORT_MS, "a digit's short pulse"), ("-", N.LONG_MS, "a digit's long pulse"),
    ("0", N.ZERO_MS, "taptic's zero"), ("M", N.MARK_MS, "the mark: hours, or a moves answer"),
)
TABLE_BEGIN = "<!-- the patterns: ./run access --table -->"
TABLE_END = "<!-- end of the patterns -->"


def spaced(pattern) -> str:
    """A pattern as its letters, spaced: "s l s s"; upper case strong."""
    return " ".join(P.rhythm(pattern))


def table() -> str:
    """The patterns' table of docs/access.md, from the firmware's own patterns."""
    out = [TABLE_BEGIN, "", "| number | event | pattern |", "|---|---|---|"]
    for n, (name, pattern) in enumerate(P.EVENTS, 1):
        out.append(f"| {n} | {MEANINGS[name]} | {spaced(pattern)} |")
    out += ["", "The pulses (one vocabulary for events and numbers; upper case is strong):", ""]
    for letter, ms, use in PULSES:
        out.append(f"- `{letter}` {ms} ms: {use}")
    out += ["", f"An event's pulses are {P.GAP} ms apart, the rattle's {P.RATTLE_GAP} ms; a number's pauses are "
            f"{N.IN_DIGIT_MS} ms inside a digit, {N.DIGIT_MS} ms between digits and {N.GROUP_MS} ms between groups.",
            "", TABLE_END]
    return "\n".join(out)


# ----- the settings in words

SEAT = {"-": "nobody", "left": "the player at the left half of the clock",
        "right": "the player at the right half of the clock", "both": "both players"}
SPEECH = {"off": "off", "en": "English", "it": "Italian", "fide": "German, in the style of FIDE appendix D.2.1"}
HELP = """Settings you can change, one per line, like: blind left
  blind left, right, both or off: whose motor plays the signals (his seat: the half of the clock he sits at)
  visual left, right, both or off: whose light shows them (a deaf player)
  ears left, right, both or off: whose answers go only into his own earphone
  volume 0 to 30, or two numbers like 15,25: the left seat's and the right seat's
  speech en, it, fide or off: the board's own voice
  code tactileclock or taptic: the number code
  intensity two numbers like 80,100: normal and strong pulses, in per cent
  thresholds up to four numbers of seconds like 600,300,60,10
  buzzer on or off
  white left or right: where White sits this game
Type show to hear the settings again, help for this list, quit to stop."""


def sentences(kw: dict[str, str]) -> list[str]:
    """The board's `access` answer as sentences a screen reader says well."""
    def seat(v):
        return SEAT.get(v, v)

    vol = kw.get("volume", "20").split(",")
    out = [
        f"Blind, the signals on the motor: {seat(kw.get('blind', '-'))}.",
        f"Deaf, the signals on the light: {seat(kw.get('visual', '-'))}.",
        f"Earphone, the answers into one's own earphone only: {seat(kw.get('ears', '-'))}.",
        f"Voice: {SPEECH.get(kw.get('speech', 'off'), kw.get('speech'))}.",
        (f"Volume: {vol[0]} of 30." if len(vol) == 1 else
         f"Volume: {vol[0]} of 30 at the left seat, {vol[1]} at the right seat."),
        f"Number code: {kw.get('code', 'tactileclock')}.",
    ]
    inten = kw.get("intensity", "80,100").split(",")
    out.append(f"Intensity: normal pulses {inten[0]} per cent, strong pulses {inten[-1]} per cent.")
    th = [t for t in kw.get("thresholds", "").split(",") if t]
    out.append("Time signals: none." if not th else
               "Time signals at " + ", ".join(_seconds(int(t)) for t in th) + " left.")
    out.append(f"Buzzer: {kw.get('buzzer', 'off')}.")
    white = kw.get("white", "left")
    out.append(f"This game White sits at the {white} half of the clock, Black at the "
               f"{'right' if white == 'left' else 'left'}.")
    return out


def _seconds(s: int) -> str:
    m, sec = divmod(s, 60)
    if m and not sec:
        return f"{m} minute{'s' if m != 1 else ''}"
    if not m:
        return f"{sec} second{'s' if sec != 1 else ''}"
    return f"{m} minute{'s' if m != 1 else ''} {sec} second{'s' if sec != 1 else ''}"


def command(text: str) -> str:
    """What a person typed ("blind left", "blind=left speech=it") as the board's command."""
    words = text.replace("=", " ").split()
    if len(words) % 2:
        raise ValueError("say a setting and its value, like: blind left")
    return "access " + " ".join(f"{k.lower()}={v}" for k, v in zip(words[::2], words[1::2]))


class Board:
    """The board's line: send a command, get its answer (the `access` line, or the refusal
    in words). transport: write(bytes) and read() -> bytes (b"" when nothing came)."""

    def __init__(self, transport, timeout: float = 3.0):
        self.transport = transport
        self.timeout = timeout
        self.parser = DeviceParser()

    def exchange(self, line: str) -> tuple[dict | None, str | None, list[str]]:
        """(the settings, or None; the refusal in words, or None; warnings in words)."""
        self.transport.write((line + "\n").encode())
        settings, refusal, warnings = None, None, []
        end = time.monotonic() + self.timeout
        while time.monotonic() < end:
            data = self.transport.read()
            if not data:
                time.sleep(0.01)
                continue
            for m in self.parser.feed(data):
                if not isinstance(m, Status):
                    continue
                if m.kind == "access":
                    settings = m.kwargs
                elif m.kind == "warning":
                    warnings.append(" ".join(m.args))
                elif m.kind == "err":
                    return None, " ".join(m.args[1:]) or (m.args[0] if m.args else "refused"), warnings
                elif m.kind == "ok" and settings is not None:
                    return settings, None, warnings
                elif m.kind == "ok" and line.startswith("hello"):
                    return {}, None, warnings
                elif m.kind == "hello" and line.startswith("hello"):
                    return {}, None, warnings
        return settings, (None if settings is not None else "the board did not answer"), warnings


class SerialTransport:
    def __init__(self, port: str):
        import serial

        self.port = serial.Serial(port, 115200, timeout=0.05, write_timeout=1)

    def write(self, data: bytes) -> None:
        self.port.write(data)

    def read(self) -> bytes:
        return self.port.read(256)

    def close(self) -> None:
        self.port.close()


def run(board: Board, changes: list[str], lines=None, say=print) -> int:
    """Greet the board, make the changes given, then (lines: what the person types, one at
    a time) those he asks for. Every answer is said in sentences."""
    for g in GREETING:
        board.transport.write((g + "\n").encode())
    board.exchange("hello")
    todo = [command(" ".join(changes))] if changes else ["access"]
    failed = 0
    for line in todo:
        failed += _one(board, line, say)
    if lines is None:
        return 1 if failed else 0
    say(HELP)
    for text in lines:
        text = text.strip()
        if not text:
            continue
        if text in ("quit", "exit", "q"):
            break
        if text == "help":
            say(HELP)
            continue
        try:
            line = "access" if text == "show" else command(text)
        except ValueError as e:
            say(f"Not understood: {e}.")
            continue
        _one(board, line, say)
    return 0


def _one(board: Board, line: str, say) -> int:
    settings, refusal, warnings = board.exchange(line)
    for w in warnings:
        say(f"The board warns: {w}.")
    if refusal is not None:
        say(f"The board refused it: {refusal}.")
        return 1
    for s in sentences(settings or {}):
        say(s)
    return 0


def _typed():
    """What the person types, a line at a time, after a short prompt a screen reader says."""
    while True:
        try:
            yield input("Change: ")
        except EOFError:
            return


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m host_tools access", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("port", nargs="?", help="the board's serial port; without it, the one Pico plugged in")
    ap.add_argument("changes", nargs="*", help="settings to change, like blind=left speech=it")
    ap.add_argument("--table", action="store_true", help="print the patterns' table of docs/access.md")
    a = ap.parse_args(argv)
    if a.table:
        print(table())
        return 0
    port, changes = a.port, list(a.changes)
    if port and "=" in port:
        changes.insert(0, port)
        port = None
    if not port:
        from host_tools.relay.lines import find_picos

        found = find_picos()
        if len(found) != 1:
            print("No board found. Plug it in, or give its port, like: python -m host_tools access COM3."
                  if not found else "More than one board is plugged in: give the port of one: " + ", ".join(found) + ".")
            return 2
        port = found[0]
    try:
        transport = SerialTransport(port)
    except Exception as e:  # pyserial's errors vary by system: said in words, whatever they are
        print(f"Cannot open the port {port}: {e}.")
        return 2
    try:
        interactive = not changes
        return run(Board(transport), changes, _typed() if interactive else None)
    finally:
        transport.close()


if __name__ == "__main__":
    sys.exit(main())
