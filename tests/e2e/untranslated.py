#!/usr/bin/env python3
"""untranslated.py PO [--literals POT] SCREEN...: English sentences of the lab's message catalog
left on screens that were drawn in PO's language (tests/e2e/test-l10n-walk.sh).

Every message of PO (msgid, and msgid_plural) is cut into its literal pieces: the text between
its printf conversions and newlines.  A piece of three English words or more (blank-separated
words of letters, lower case after the first: not paths, option names, identifiers or
acronyms) that stands on a screen verbatim is an untranslated message, unless the language's
own translation of that message keeps the same words (a command line, a name the translation
leaves in English: then it is the translation that shows).  With --literals, POT holds every
string literal of the lab's sources (xgettext -a): a piece of one that PO does not have is a
string a front end forgot to mark, and counts the same.  The screens' lines are joined and
their runs of blanks made one, so a sentence the lab wrapped over two lines is still found.
Code, kernel names and verdict names are never three English words.

Exit 0 when no screen has one; else 1, each finding as "SCREEN: 'piece' (msgid 'MSGID')"."""
import re
import sys

CONVERSION = re.compile(r"%(?:\d+\$)?[-+ #0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?"
                        r"(?:hh|h|ll|l|L|q|j|z|t)?[diouxXeEfgGcsp%]")
WORD = re.compile(r"^[(\[\"'`]*[A-Za-z][a-z]+(?:'[a-z]+)?[)\]\"'`,.;:!?]*$")


def unquote(s):
    """A PO string's contents, its escapes undone."""
    return re.sub(r'\\(.)', lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), s)


def messages(path):
    """(msgid, msgid_plural or None, [msgstr...]) of every message, translated or not."""
    out, entry, key = [], {}, None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line.strip():
            if entry:
                out.append(entry)
            entry, key = {}, None
            continue
        if line.startswith("#"):
            continue
        m = re.match(r'(msgid|msgid_plural|msgstr(?:\[\d+\])?|msgctxt)\s+"(.*)"$', line)
        if m:
            key = m.group(1)
            entry[key] = unquote(m.group(2))
        elif line.startswith('"') and key:
            entry[key] += unquote(line[1:-1])
    if entry:
        out.append(entry)
    result = []
    for e in out:
        if not e.get("msgid"):
            continue  # the header
        # an untranslated message (no msgstr) shows its English: nothing is kept
        strs = [v for k, v in e.items() if k.startswith("msgstr") and v]
        result.append((e["msgid"], e.get("msgid_plural"), strs))
    return result


def squeeze(text):
    return re.sub(r"\s+", " ", text)


def pieces(msgid):
    """The literal pieces of msgid worth looking for: three words or more."""
    for part in CONVERSION.split(msgid):
        for piece in part.split("\n"):
            piece = squeeze(piece).strip(" ,;:.()[]'\"`-")
            if sum(1 for w in piece.split(" ") if WORD.match(w)) >= 3:
                yield piece


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    catalog = messages(args.pop(0))
    if args[0] == "--literals" and len(args) > 2:
        marked = {msgid for msgid, _, _ in catalog}
        catalog += [(msgid, plural, []) for msgid, plural, _ in messages(args[1])
                    if msgid not in marked]
        args = args[2:]
    screens = [(path, squeeze(open(path, encoding="utf-8", errors="replace").read()))
               for path in args]
    found = set()
    for msgid, plural, strs in catalog:
        kept = squeeze(" ".join(strs))
        for english in filter(None, (msgid, plural)):
            for piece in pieces(english):
                if piece in kept:
                    continue  # the translation keeps these words itself
                for path, text in screens:
                    if piece in text:
                        found.add(f"{path}: '{piece}' (msgid '{squeeze(msgid)[:100]}')")
    for f in sorted(found):
        print(f)
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
