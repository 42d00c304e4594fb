"""The verdict rule of every results table (issue 43), written once. docs/results/README.md states it for readers.

A claim compares our effect with the paper's on the same metric in the paper's setting. An effect is a signed
number: a change (WAF at a threshold minus WAF at threshold 0) or, for a claim about a level, the level itself.
The spread is the run-to-run standard deviation of our effect over at least three seeds (sim.seed).

  in size      same sign as the paper's, |ours| above the spread, and within 2x of the paper's:
               |paper| / 2 <= |ours| <= 2 |paper|
  direction    same sign, above the spread, outside 2x
  no           the other sign, or |ours| at or below the spread (indistinguishable from run-to-run noise)
  conditional  appended when the setting was chosen after seeing the paper's number; the setting is named

A paper effect of 0 ("no effect") is met by |ours| at or below the spread ("in size"), else "no".
A paper that gives only a direction and no number ("slightly lower", "clearly higher") cannot be met in size: the
verdict is "direction" (same sign, above the spread) or "no" (judge_sign).
"""
import math
import statistics

IN_SIZE, DIRECTION, NO = "in size", "direction", "no"


def judge(paper, ours, spread, conditional=None):
    """The verdict of one claim: paper's effect, our effect, our spread (>= 0), the setting chosen by matching."""
    if spread < 0 or any(math.isnan(v) for v in (paper, ours, spread)):
        raise ValueError("verdict of a claim without numbers: paper %r ours %r spread %r" % (paper, ours, spread))
    if paper == 0:
        v = IN_SIZE if abs(ours) <= spread else NO
    elif abs(ours) <= spread or (ours > 0) != (paper > 0):
        v = NO
    elif abs(paper) / 2 <= abs(ours) <= 2 * abs(paper):
        v = IN_SIZE
    else:
        v = DIRECTION
    return v + (" (conditional: %s)" % conditional if conditional else "")


def judge_sign(sign, ours, spread, conditional=None):
    """The verdict of a claim whose paper gives a direction (sign +1 or -1) without a number: at most "direction"."""
    if sign not in (1, -1):
        raise ValueError("a direction is +1 or -1, got %r" % (sign,))
    if spread < 0 or math.isnan(ours) or math.isnan(spread):
        raise ValueError("verdict of a claim without numbers: ours %r spread %r" % (ours, spread))
    v = DIRECTION if abs(ours) > spread and (ours > 0) == (sign > 0) else NO
    return v + (" (conditional: %s)" % conditional if conditional else "")


def spread(values):
    """Run-to-run spread: the sample standard deviation over the seeds (at least three)."""
    if len(values) < 3:
        raise ValueError("a spread needs at least 3 seeds, got %d" % len(values))
    return statistics.stdev(values)


def markdown(header, rows):
    """A markdown table: header cells, then rows of cells."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def begin_marker(name):
    return "<!-- verdicts:%s begin (scripts/verdicts.py writes this table; do not edit by hand) -->\n" % name


def end_marker(name):
    return "<!-- verdicts:%s end -->\n" % name


def replace_block(text, name, block):
    """text with the block between name's markers replaced; ValueError when the markers are missing."""
    b, e = begin_marker(name), end_marker(name)
    i, j = text.find(b), text.find(e)
    if i < 0 or j < i:
        raise ValueError("no verdict block '%s' (markers %r ... %r)" % (name, b.strip(), e.strip()))
    return text[:i + len(b)] + block + text[j:]
