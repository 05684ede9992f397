#!/usr/bin/env python3
"""Writes the man pages of movconf from its own help text, so that they
cannot drift from it: movconf.1 from `movconf --help`, movconf-CMD.1 from
`movconf help CMD` for every command that `movconf --help` lists. The help
is shown verbatim (no fill), under the usual NAME, SYNOPSIS and DESCRIPTION
headings; the line naming this build's data folder is left out (a page is
built once, the folder depends on where movconf is installed), and FILES and
ENVIRONMENT say how it is found instead.

usage: tools/manpages.py MOVCONF OUTDIR
"""
import os
import re
import subprocess
import sys

FILES = """\
.SH FILES
.TP
.I <prefix>/share/movconf/
movconf's data folder, found from the program's own location
(\\fI<prefix>/bin/movconf\\fR): conformance/ and conformance-large/ (the
cases of the default and large tiers), generators/ and spec/.
`movconf \\-\\-version' names the folder in use.
.SH ENVIRONMENT
.TP
.B MOVCONF_DATA_DIR
a data folder to use instead (one holding conformance/, conformance-large/,
generators/, spec/), for a relocated copy.
.TP
.B MOVCONF_THREADS
default thread count of the optimized kernels.
"""


def help_text(movconf, *args):
    out = subprocess.run([movconf, *args], check=True, capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if not line.startswith("data folder: ")]


def escape(line):
    line = line.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + line if line.startswith((".", "'")) else line


def commands(main_help):
    """Command names of the "commands:" list of movconf --help."""
    names, inside = [], False
    for line in main_help:
        if line == "commands:":
            inside = True
        elif inside and not line.strip():
            break
        elif inside and re.match(r"^  [a-z]", line):
            names.append(line.split()[0])
    return names


def summary(main_help, command):
    """The command's description in movconf --help (two lines at most),
    without parentheses, up to its first colon or semicolon. Descriptions
    start at the column of the list's continuation lines."""
    listed = main_help[main_help.index("commands:") + 1:]
    column = min(len(l) - len(l.lstrip()) for l in listed if l.startswith("    "))
    for i, line in enumerate(listed):
        if line.split()[:1] == [command]:
            text = line[column:].strip()
            if i + 1 < len(listed) and listed[i + 1].startswith(" " * column):
                text += " " + listed[i + 1].strip()
            text = re.sub(r"\s*\([^)]*\)", "", text)
            return re.split(r"[:;]", text)[0].strip()
    return command


def page(name, version, description, usage, body, see_also):
    title = name.upper()
    lines = [
        f'.TH {title} 1 "" "movconf {version}" "movconf manual"',
        ".SH NAME",
        f"{name} \\- {escape(description)}",
        ".SH SYNOPSIS",
        ".nf",
        *[escape(u) for u in usage],
        ".fi",
        ".SH DESCRIPTION",
        ".nf",
        *[escape(b) for b in body],
        ".fi",
        FILES.rstrip("\n"),
        ".SH SEE ALSO",
        ", ".join(f"\\fB{s}\\fR(1)" for s in see_also),
    ]
    return "\n".join(lines) + "\n"


def split_usage(text):
    """The leading "usage:" lines (and their continuations) and the rest."""
    usage, i = [], 0
    while i < len(text) and not text[i].strip():
        i += 1
    if i < len(text) and text[i].startswith("usage: "):
        usage.append(text[i][len("usage: "):])
        i += 1
        while i < len(text) and text[i].startswith(" "):
            usage.append(text[i].strip())
            i += 1
    while i < len(text) and not text[i].strip():
        i += 1
    return usage, text[i:]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[-1].strip())
    movconf, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    version = help_text(movconf, "--version")[0].split()[-1]
    main_help = help_text(movconf, "--help")
    names = commands(main_help)
    if not names:
        sys.exit("manpages: movconf --help lists no commands")
    pages = {"movconf": page("movconf", version, "conformance suite for OpenVINO's "
                             "data-movement operations", ["movconf <command> [options]"],
                             main_help, [f"movconf-{c}" for c in names if c != "help"])}
    for command in names:
        if command == "help":
            continue
        usage, body = split_usage(help_text(movconf, "help", command))
        pages[f"movconf-{command}"] = page(f"movconf-{command}", version,
                                           summary(main_help, command), usage, body,
                                           ["movconf"])
    for old in os.listdir(outdir):
        if old.endswith(".1") and old[:-2] not in pages:
            os.remove(os.path.join(outdir, old))
    for name, text in pages.items():
        with open(os.path.join(outdir, f"{name}.1"), "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main()
