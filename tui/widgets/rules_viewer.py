"""The rules page's viewer: Textual's Markdown viewer, with a contents tree of
plain section names (Textual marks each level "Ⅰ", "Ⅱ": a puzzle to a reader,
and no ASCII)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import MarkdownViewer, Tree
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


class RulesViewer(MarkdownViewer):
    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, MarkdownTableOfContents):
                yield PlainContents(widget.markdown)
            else:
                yield widget
