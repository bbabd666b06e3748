"""The repository's rules' codes (RFC 0019 §§4, 6, Compatibility; issue #16; docs/trust.md): a pull request
against its base, its sign-off, the skip acknowledgements and the pinned verifier.

Add a code as `"code": Code(section, meaning, fix, command)`; `python -m judgment_exchange.codes --write`
regenerates docs/codes.md from these records (tests/test_codes.py fails while it is stale).
"""

from ..coderecord import Code

ONE_ENTRY_PER_PULL_REQUEST = "one-entry-per-pull-request"
GATE_CHANGE_WITH_ENTRY = "gate-change-with-entry"
ENTRY_CHANGE_WITH_OTHER_FILE = "entry-change-with-other-file"
DOCUMENT_NOT_REGULAR = "document-not-regular"
BASE_UNREADABLE = "base-unreadable"
SIGNOFF_MISSING = "signoff-missing"
SKIP_UNACKNOWLEDGED = "skip-unacknowledged"
SKIP_ACKNOWLEDGEMENT_STALE = "skip-acknowledgement-stale"
SKIPS_MALFORMED = "skips-malformed"
SKIPS_FILE_REMOVED = "skips-file-removed"
VERIFIER_PIN_MALFORMED = "verifier-pin-malformed"
VERIFIER_FETCH_FAILED = "verifier-fetch-failed"
VERIFIER_PIN_MOVED_WITH_ENTRY = "verifier-pin-moved-with-entry"

RECORDS: dict[str, Code] = {
    ONE_ENTRY_PER_PULL_REQUEST: Code(
        "RFC 0019 §6: one entry per pull request (exchange check --base)",
        "The change against the base touches more than one entry.",
        "Split the change into one pull request per entry.",
    ),
    GATE_CHANGE_WITH_ENTRY: Code(
        "issue #16 item 2: gate changes travel alone (docs/trust.md, 'Gate files'; exchange check --base)",
        "The change against the base alters the gate's own files (its code, tests, benchmarks, CI, workflows, "
        "build, lock, owners or attributes files, the demonstration catalog, docs/codes.md) and also touches an "
        "entry, a manifest row or a skips.json item.",
        "Split it: the gate's change in a pull request of its own, reviewed by the maintainers, and the entry's "
        "in another.",
    ),
    ENTRY_CHANGE_WITH_OTHER_FILE: Code(
        "issue #16 item 2: a pull request for an entry changes only that entry (docs/trust.md; exchange check --base)",
        "The change touches an entry and also changes another file of the repository (a document, the README), "
        "outside the entry's directory, its manifest row and its own skips.json items.",
        "Move the other file's change to a pull request of its own.",
    ),
    DOCUMENT_NOT_REGULAR: Code(
        "issue #38 item 2: a document is a regular file like every file the gate reads (docs/trust.md, "
        "'What a document pull request can reach'; exchange check --base)",
        "A document the change adds or alters (README.md, CONTRIBUTING.md, LICENSE, .gitignore, entries/README.md, "
        "docs/*.md) is not a regular file without the executable bit (a symlink, a submodule, an executable), or "
        "its name is outside the display grammar (a control character such as a newline, or a name the scan flags).",
        "Commit the document as a regular file with its content (not a link or a submodule), clear the executable "
        "bit (git update-index --chmod=-x PATH), and give it a plain name.",
    ),
    BASE_UNREADABLE: Code(
        "interfaces.md --base: the pull request's base revision cannot be read",
        "The --base revision cannot be resolved or read.",
        "Name a base this clone holds: fetch the catalog's main (git fetch upstream, or git fetch origin) and "
        "pass it (--base upstream/main), or let the gate find it (--base auto); check the spelling of the revision.",
    ),
    SIGNOFF_MISSING: Code(
        "RFC 0019 §6 Contributions: a DCO sign-off on every commit (exchange signoff; CONTRIBUTING.md)",
        "A commit of the pull request that carries change (any commit but a clean merge of two parents: a merge "
        "whose tree differs from git merge-tree --write-tree of its parents, whose parents conflict, or of three "
        "or more parents is checked too) has no Signed-off-by trailer naming its author's email.",
        "Make the branch one signed-off commit holding the same tree: git reset --soft $(git merge-base BASE "
        "HEAD) && git commit -s && git push --force-with-lease.",
    ),
    SKIP_UNACKNOWLEDGED: Code(
        "RFC 0019 §4 'A fixture the verifier cannot recompute', held stricter: docs/skips.md",
        "A fixture is held by its digests only (kind-unread or version-unread) and the catalog's skips.json "
        "does not acknowledge it.",
        "Review why the fixture cannot be recomputed; if the catalog accepts it, add {entry, fixture, why} for "
        "it to skips.json in the same pull request (docs/skips.md).",
    ),
    SKIP_ACKNOWLEDGEMENT_STALE: Code(
        "docs/skips.md: an acknowledgement names a current skip",
        "skips.json acknowledges a fixture that is not skipped: no such entry or fixture, or it was replayed.",
        "Remove the acknowledgement from skips.json; acknowledge a skip only once the gate reports it.",
    ),
    SKIPS_MALFORMED: Code(
        "docs/skips.md: skips.json's closed form",
        "skips.json is not a JSON array of distinct {entry, fixture, why} in entry, fixture byte order, "
        "within its bounds.",
        "Correct skips.json to the form docs/skips.md gives ([] when nothing is skipped).",
    ),
    SKIPS_FILE_REMOVED: Code(
        "issue #16 item 3: once the base holds skips.json, a pull request keeps it (docs/skips.md; exchange check "
        "--base)",
        "The base holds skips.json and the change removes it, which would switch the acknowledgement rule off.",
        "Restore skips.json from the base (git checkout BASE -- skips.json) and remove only the items the change "
        "makes stale.",
    ),
    VERIFIER_PIN_MALFORMED: Code(
        "RFC 0019 §4 (the verifier 'at the specification commit the repository's CI pins'); docs/verifier-pin.md",
        "verifier-pin.json is not one object of exactly pinVersion 1, reader (a §3 reader locator) and run (the "
        "reader's argv template), within 64 KiB, read strictly; or it is not a regular file.",
        "Correct verifier-pin.json to the form docs/verifier-pin.md gives, in a pull request that moves the pin "
        "alone.",
    ),
    VERIFIER_FETCH_FAILED: Code(
        "RFC 0019 §4: the pinned reader fetched at its commit (exchange verifier fetch; docs/verifier-pin.md)",
        "exchange verifier fetch: the pin names an abbreviated commit, or the specification's repository holds "
        "no such commit, or no file at the locator's path at that commit.",
        "Name the reader's full 40-hex commit and its path as the specification's history holds them, in a pull "
        "request that moves the pin alone.",
    ),
    VERIFIER_PIN_MOVED_WITH_ENTRY: Code(
        "RFC 0019 Compatibility: 'moves its pin, by its own pull request' (exchange check --base)",
        "The change against the base moves the verifier pin (changes verifier-pin.json) and also touches an entry.",
        "Move the pin in a pull request of its own; change the entry in another (an entry the moved verifier "
        "answers otherwise is decided on the pin's pull request).",
    ),
}
