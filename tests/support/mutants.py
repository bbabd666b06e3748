"""Mutants of the rules that have one home (issue #37 item 2), applied to the rule's own source.

A mutant names a module, a function in it and a text of its source to replace: the function's source is read
(`inspect.getsource`), the text replaced (the mutant fails loudly when the text is no longer there, so a mutant
never silently tests nothing), compiled in the module's namespace and put in place of the function's code object,
so every caller — however it imported the function — runs the mutated rule. Applied at the start of every Python
process by `mutant_site/sitecustomize.py` (on PYTHONPATH) when EXCHANGE_MUTANT names one mutant, so an `exchange`
process a test starts runs it too; tests/test_rule_homes.py runs each caller's test under each mutant and holds
every one of them to failing.
"""

from __future__ import annotations

import importlib
import inspect
import textwrap

MUTANTS: dict[str, tuple[str, str, str, str]] = {
    # the replay interpretation's digest comparison removed: every reading agrees
    "replay-digest": ("judgment_exchange.codes.verifier", "read_answer",
                      "agrees = expected is not None and found == expected", "agrees = True"),
    # the replay interpretation's skip removed: a skip's refusal read as a failure
    "replay-skip": ("judgment_exchange.codes.verifier", "read_answer",
                    'if result == "refusal" and skip_of(answer.get("refusal")):', "if False:"),
    # the upgrade-note rule's note removed: a changed entry with its note is still one without
    "upgrade-note-ignored": ("judgment_exchange.history.upgrade", "changed_without_note",
                             "return now != released and not (isinstance(notes, dict) and released in notes)",
                             "return now != released"),
    # the upgrade-note rule removed: no changed entry is ever without its note
    "upgrade-note-never-missing": ("judgment_exchange.history.upgrade", "changed_without_note",
                                   "return now != released and not (isinstance(notes, dict) and released in notes)",
                                   "return False"),
    # the pointer-to-span lookup's member name unchecked: the first member of an object is every name's
    "span-name": ("judgment_exchange.pointers", "_child", "if _key(data, i, end) == step:",
                  "if _key(data, i, end) is not None:"),
    # the pointer-to-span lookup's array index unchecked: the first element is every index's
    "span-index": ("judgment_exchange.pointers", "_child", "if index == want:", "if True:"),
    # RFC 6901 escaping removed: a token is written as it is
    "pointer-escape": ("judgment_exchange.pointers", "escape", 'return text.replace("~", "~0").replace("/", "~1")',
                       "return text"),
    # RFC 0019's byte order reversed: ids sorted the other way round
    "id-order": ("judgment_exchange.tree", "id_order", 'return name.encode("utf-8", "surrogateescape")',
                 'return bytes(255 - b for b in name.encode("utf-8", "surrogateescape"))'),
}
"""name -> (module, function, text in its source, the text put in its place)."""


def swap(module_name: str, function: str, old: str, new: str, name: str = ""):
    """Put the function's source with `old` replaced by `new` in place of its code object (every caller, however it
    imported the function, runs the mutated text); returns (function, its code object before) to restore it. A text
    not exactly once in the function's source fails loudly, so a mutant never silently tests nothing."""
    module = importlib.import_module(module_name)
    target = module
    for part in function.split("."):  # a method as Class.method
        target = getattr(target, part)
    source = textwrap.dedent(inspect.getsource(target))
    if source.count(old) != 1:
        raise AssertionError(f"mutant {name}: {old!r} is not once in {module_name}.{function}")
    namespace = dict(vars(module))
    exec(compile("from __future__ import annotations\n" + source.replace(old, new), module.__file__, "exec"),
         namespace)
    before = target.__code__
    target.__code__ = namespace[function.rsplit(".", 1)[-1]].__code__
    return target, before


def apply(name: str) -> None:
    """The mutant `name` of MUTANTS, for the rest of this process."""
    swap(*MUTANTS[name], name=name)
