"""The placeholder values `exchange new` writes, in one place (issue #9, "Placeholders never pass"): the
scaffold writes them, and the gate refuses every one that remains (catalog/placeholders.py, code
`placeholder-value`).

A placeholder is a value no real entry carries by accident: each is written by the scaffold only,
so finding one anywhere in an entry means a part a person must write is still unwritten.
"""

from __future__ import annotations

# Human parts of entry.json the scaffold cannot know.
TITLE_SUFFIX = "(describe it)"
REPLACE_ME = "replace-me"
DESCRIPTION = "replace-me: one or two sentences on what this entry reads and for which pack"
PACK_ID = "https://example.org/packs/replace-me"
# The scaffold's example dialect and output documents.
EXAMPLE_PLATFORM = "example-platform"
EXAMPLE_OPERATION = "example-read"
EXAMPLE_TOOL = "example_tool"
# The scaffold's README body.
README_TEXT = "What this dialect is for, in the publisher's words."
PRESET_README_TEXT = "What this preset is for, in the publisher's words."

# Every marker the gate looks for; a value holding one of these is refused as placeholder-value.
MARKERS: tuple[str, ...] = (TITLE_SUFFIX, REPLACE_ME, EXAMPLE_PLATFORM, EXAMPLE_OPERATION, EXAMPLE_TOOL,
                            README_TEXT, PRESET_README_TEXT)
