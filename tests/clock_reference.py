"""An independent reference model of the clock for the property test: its own parser and
its own arithmetic, written from the rules, sharing no code with firmware/clock/.

It plays a schedule of thinking times (White first) and returns, after each completed
move, both players' times; or the flag: which side, and how many ms into its move."""
import re


def parse(text):
    if text.startswith("*"):
        return {"kind": "hourglass", "base": int(text[1:]) * 1000}
    periods = []
    for part in text.split(":"):
        m = re.fullmatch(r"(?:(\d+)/)?(\d+)(?:([+db])(\d+)|y(\d+)x(\d+))?", part)
        assert m, part
        moves, base, sign, arg, byo_n, byo_s = m.groups()
        periods.append({
            "moves": int(moves or 0), "base": int(base) * 1000,
            "inc": int(arg) * 1000 if sign == "+" else 0,
            "delay": int(arg) * 1000 if sign == "d" else 0,
            "bronstein": int(arg) * 1000 if sign == "b" else 0,
            "byo_n": int(byo_n or 0), "byo_s": int(byo_s or 0) * 1000,
        })
    return {"kind": "periods", "periods": periods}


def play(text, thinking):
    tc = parse(text)
    if tc["kind"] == "hourglass":
        t = [tc["base"], tc["base"]]
        out = []
        for k, d in enumerate(thinking):
            s = k % 2
            if d >= t[s]:
                return out, (s, t[s])
            t[s] -= d
            t[1 - s] += d
            out.append(tuple(t))
        return out, None
    periods = tc["periods"]
    st = [{"main": periods[0]["base"], "p": 0, "n": 0, "over": False, "byo": periods[0]["byo_n"]}
          for _ in (0, 1)]
    out = []
    for k, d in enumerate(thinking):
        s = k % 2
        me = st[s]
        per = periods[me["p"]]
        # How long may this player think before his flag falls?
        if per["byo_n"]:
            room = (0 if me["over"] else me["main"]) + me["byo"] * per["byo_s"]
        else:
            room = me["main"] + per["delay"]
        if d >= room:
            return out, (s, room)
        if per["byo_n"]:
            if not me["over"] and d < me["main"]:
                me["main"] -= d
            else:
                over = d - (0 if me["over"] else me["main"])
                me["over"] = True
                me["byo"] -= over // per["byo_s"]
                me["main"] = 0
        else:
            me["main"] -= max(0, d - per["delay"])
            me["main"] += per["inc"] + min(d, per["bronstein"])
        me["n"] += 1
        if per["moves"] and me["n"] == per["moves"]:
            me["p"] = min(me["p"] + 1, len(periods) - 1)
            me["n"] = 0
            me["main"] += periods[me["p"]]["base"]
        shown = []
        for x in st:
            xp = periods[x["p"]]
            shown.append(xp["byo_s"] if x["over"] else x["main"])
        out.append(tuple(shown))
    return out, None
