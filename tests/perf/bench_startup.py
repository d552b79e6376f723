"""Startup figure: launch to the interactive home screen, and peak memory,
for cardtable against a bare Textual app (Header, Static, Footer), side by side.

Each run is a fresh interpreter (imports count: they are most of startup) that
runs the app headless and exits right after the first screen has been drawn;
cardtable's run takes the path `cardtable` takes (tui.cli's parser, tui.run).
Runs alternate between the two apps so that machine noise hits both alike;
the median of each is reported with its spread (the middle half of the runs,
and the fastest and slowest), and the ratios against the goal (<= 1.10x the
time, <= 1.3x the memory of the bare app). Both run as an installed program
runs: with their bytecode cached, in a cache of the bench's own.

    uv run python tests/perf/bench_startup.py [--runs 9] [--before DIR]

``--before DIR`` runs a third app beside them: cardtable from another checkout
of the same project (``git worktree add DIR main``), with this environment's
libraries, as the figures before a change.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import resource, sys, time
from pathlib import Path
kind = sys.argv[1]
if kind == "bare":
    from textual.app import App
    from textual.widgets import Footer, Header, Static

    class Bare(App):
        def compose(self):
            yield Header()
            yield Static("hello")
            yield Footer()

        def on_mount(self):
            self.call_after_refresh(self.exit)

    app = Bare()
else:
    # as `cardtable` starts (its folders from the environment): its command
    # line parsed as main() parses it, then the module launch_app opens the
    # app from (tui/cli.py), then the app
    import tui.cli

    parse = getattr(tui.cli, "parse_command_line", None)  # (a --before checkout may lack it)
    args = parse([]) if parse else tui.cli.build_parser().parse_args([])
    assert getattr(args, "handler", tui.cli.cmd_home) is tui.cli.cmd_home, args
    try:  # launch_app holds the collector before Textual loads (a --before checkout may not)
        from tui.start_heap import hold_collector
    except ImportError:
        pass
    else:
        hold_collector()
    import tui.run
    from tui.app import CardTableApp

    class FirstPaint(CardTableApp):
        def on_mount(self):
            self.call_after_refresh(self.first_paint)

        def first_paint(self):
            assert type(self.screen).__name__ == "HomeScreen", self.screen
            self.exit()

    app = FirstPaint(Path(sys.argv[2]), Path(sys.argv[3]))
app.run(headless=True, size=(80, 24))
usage = resource.getrusage(resource.RUSAGE_SELF)
print(usage.ru_utime + usage.ru_stime)
print(usage.ru_maxrss)
"""


def run_once(kind: str, tmp: Path, tree: Path = ROOT) -> tuple[float, int, float]:
    env = dict(
        os.environ,
        CARDTABLE_DATA_DIR=str(tmp / "data"),
        CARDTABLE_CONFIG_DIR=str(tmp / "config"),
        TEXTUAL_ANIMATIONS="none",
        # bytecode cached, as for an installed program (an install compiles it):
        # into a cache of this bench's own, so that a PYTHONDONTWRITEBYTECODE
        # in the environment does not make one app compile its modules every run
        PYTHONPYCACHEPREFIX=str(tmp / "pycache"),
    )
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", CHILD, kind, str(tmp / "data"), str(tmp / "config")],
        cwd=tree,  # (`-c` puts the working folder first on the path: its tui/ is run)
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode != 0:
        raise SystemExit(f"the {kind} run failed:\n{out.stdout}\n{out.stderr}")
    elapsed = time.perf_counter() - start
    *_, cpu, rss = out.stdout.strip().splitlines()
    return elapsed, int(rss), float(cpu)  # ru_maxrss: KiB on Linux


def _quartiles(values: list[float]) -> tuple[float, float]:
    """The first and third quartiles: where the middle half of the runs lies."""
    if len(values) < 2:
        return values[0], values[0]
    q1, _, q3 = statistics.quantiles(values, n=4)
    return q1, q3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--before", type=Path, metavar="DIR", help="also cardtable from this checkout"
    )
    args = parser.parse_args(argv)
    # label -> (the child's kind, the tree it runs from)
    apps = {"bare": ("bare", ROOT), "cardtable": ("cardtable", ROOT)}
    if args.before is not None:
        apps["before"] = ("cardtable", args.before.resolve())
    results: dict[str, list[tuple[float, int, float]]] = {label: [] for label in apps}
    with tempfile.TemporaryDirectory() as tmp:
        for kind, tree in apps.values():  # warm the file cache for each
            run_once(kind, Path(tmp), tree)
        for _ in range(args.runs):
            for label, (kind, tree) in apps.items():
                results[label].append(run_once(kind, Path(tmp), tree))
    figures = {
        kind: {
            "time_s": statistics.median(t for t, _, _ in runs),
            "time_quartiles_s": _quartiles([t for t, _, _ in runs]),
            "time_range_s": (min(t for t, _, _ in runs), max(t for t, _, _ in runs)),
            # the CPU the process used: what machine load disturbs least
            "cpu_s": statistics.median(c for _, _, c in runs),
            "peak_rss_mib": statistics.median(m for _, m, _ in runs) / 1024,
        }
        for kind, runs in results.items()
    }
    time_ratio = figures["cardtable"]["time_s"] / figures["bare"]["time_s"]
    mem_ratio = figures["cardtable"]["peak_rss_mib"] / figures["bare"]["peak_rss_mib"]
    cpu_ratio = figures["cardtable"]["cpu_s"] / figures["bare"]["cpu_s"]
    if args.json:
        ratios = {"time_ratio": time_ratio, "memory_ratio": mem_ratio, "cpu_ratio": cpu_ratio}
        print(json.dumps({**figures, **ratios}))
        return 0
    print(
        f"{'':12}{'launch to home':>16}{'peak RSS':>12}   ({args.runs} runs: median;"
        " middle half; fastest-slowest)"
    )
    for kind, f in figures.items():
        q1, q3 = f["time_quartiles_s"]
        lo, hi = f["time_range_s"]
        print(
            f"{kind:12}{f['time_s'] * 1000:>13.0f} ms{f['peak_rss_mib']:>8.1f} MiB"
            f"   {q1 * 1000:.0f}-{q3 * 1000:.0f} ms; {lo * 1000:.0f}-{hi * 1000:.0f} ms;"
            f" CPU {f['cpu_s'] * 1000:.0f} ms"
        )
    print(
        f"{'ratio':12}{time_ratio:>15.2f}x{mem_ratio:>11.2f}x   goal <= 1.10x, <= 1.30x;"
        f" CPU {cpu_ratio:.2f}x"
    )
    if "before" in figures:
        b, bare = figures["before"], figures["bare"]
        print(
            f"{'before':12}{b['time_s'] / bare['time_s']:>15.2f}x"
            f"{b['peak_rss_mib'] / bare['peak_rss_mib']:>11.2f}x   (the --before checkout);"
            f" CPU {b['cpu_s'] / bare['cpu_s']:.2f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
