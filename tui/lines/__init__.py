"""Line mode (``cardtable --lines``): a second front end for screen readers,
pipes and ``TERM=dumb``: plain lines out, plain lines in, choices by number,
never a redraw (docs/lines.md). It uses the same table client API, the same
rules words and the same saves as the app, and never imports Textual or Rich
(an import-linter contract and tests/lines/test_lines_headless.py hold it)."""
