"""The rules page's viewer: Textual's Markdown viewer, with a contents tree of
plain section names (Textual marks each level "Ⅰ", "Ⅱ": a puzzle to a reader,
and no ASCII), and a page that is not restyled whole when it takes or loses
the focus."""

from __future__ import annotations

from contextlib import suppress

from rich.text import Text
from textual.app import ComposeResult
from textual.types import NoActiveAppError
from textual.widgets import Markdown, MarkdownViewer, Tree
from textual.widgets.markdown import MarkdownTableOfContents, TableOfContentsType


class PlainContents(MarkdownTableOfContents):
    def rebuild_table_of_contents(self, table_of_contents: TableOfContentsType) -> None:
        tree = self.query_one(Tree)
        tree.clear()
        for level, name, block_id in table_of_contents:
            node = tree.root
            for _ in range(level - 1):  # under the latest section of each level above
                if not node.children:
                    break
                node = node.children[-1]
                node.allow_expand = True
                node.expand()
            node.add_leaf(Text(name), {"block_id": block_id})


class RulesDocument(Markdown):
    """The page itself: a block widget a paragraph, a hundred or more.

    Textual restyles a widget and everything in it when it takes or loses the
    focus, in case a rule styles what is inside by the focus of what holds it.
    No rule does here (Textual's Markdown styles and ours style no block by the
    page's focus), so the page restyles itself alone: the whole page restyled
    as it opened (it takes the focus) was a third of opening it, and again as
    it closed (it loses it) most of closing it."""

    def watch_has_focus(self, _has_focus: bool) -> None:
        # as Textual's own: with no app (being torn down) there is nothing to style
        with suppress(NoActiveAppError):
            self.app.stylesheet.update_nodes([self], animate=True)


class RulesViewer(MarkdownViewer):
    def compose(self) -> ComposeResult:
        # MarkdownViewer's own two widgets (a focusable page and its contents),
        # with our page and our contents (Textual's options left at their defaults)
        document = RulesDocument()
        document.can_focus = True
        yield document
        yield PlainContents(document)
