"""The credential scan's engine: detect-secrets 1.5.0 in-process, with an explicit plugin list (RFC 0019 §4).

No baseline, no settings file, no network: the plugins are instantiated here, each plugin is given
the lines of a file where it can find something (found in one pass over the file for every plugin,
prefilter.py; the same hits as every line given to every plugin, tests/scan/test_scan_one_pass.py),
and detect-secrets' own heuristic filters are applied by name. Its
allow-list comment (`pragma: allowlist secret`) is not honoured: an entry is data, and a comment in
it cannot silence the scan. Values found stay inside this module and its caller; a report never
carries them.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import accumulate, repeat
from operator import add, itemgetter, methodcaller
from typing import Callable, Iterable, Iterator, Pattern, TypeGuard

from detect_secrets.filters import heuristic
from detect_secrets.plugins.artifactory import ArtifactoryDetector
from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
from detect_secrets.plugins.base import BasePlugin, RegexBasedDetector
from detect_secrets.plugins.basic_auth import BasicAuthDetector
from detect_secrets.plugins.cloudant import CloudantDetector
from detect_secrets.plugins.discord import DiscordBotTokenDetector
from detect_secrets.plugins.github_token import GitHubTokenDetector
from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
from detect_secrets.plugins.high_entropy_strings import (
    Base64HighEntropyString,
    HexHighEntropyString,
    HighEntropyStringsPlugin,
)
from detect_secrets.plugins.ibm_cloud_iam import IbmCloudIamDetector
from detect_secrets.plugins.ibm_cos_hmac import IbmCosHmacDetector
from detect_secrets.plugins.jwt import JwtTokenDetector
from detect_secrets.plugins.keyword import KeywordDetector
from detect_secrets.plugins.mailchimp import MailchimpDetector
from detect_secrets.plugins.npm import NpmDetector
from detect_secrets.plugins.openai import OpenAIDetector
from detect_secrets.plugins.private_key import PrivateKeyDetector
from detect_secrets.plugins.pypi_token import PypiTokenDetector
from detect_secrets.plugins.sendgrid import SendGridDetector
from detect_secrets.plugins.slack import SlackDetector
from detect_secrets.plugins.softlayer import SoftlayerDetector
from detect_secrets.plugins.square_oauth import SquareOAuthDetector
from detect_secrets.plugins.stripe import StripeDetector
from detect_secrets.plugins.telegram_token import TelegramBotTokenDetector
from detect_secrets.plugins.twilio import TwilioKeyDetector
from detect_secrets.settings import get_settings

from ..codes.shapes import (
    SCAN_DETECTOR_FAILED,
    SECRET_ARTIFACTORY,
    SECRET_AUTHORIZATION_HEADER,
    SECRET_AWS_ACCESS_KEY,
    SECRET_AWS_SECRET_KEY,
    SECRET_AZURE_DEVOPS_PAT,
    SECRET_AZURE_STORAGE_KEY,
    SECRET_CLOUDANT,
    SECRET_CONNECTION_STRING,
    SECRET_DATABRICKS_TOKEN,
    SECRET_DISCORD_TOKEN,
    SECRET_GITHUB_TOKEN,
    SECRET_GITLAB_TOKEN,
    SECRET_GOOGLE_API_KEY,
    SECRET_HIGH_ENTROPY_BASE64,
    SECRET_HIGH_ENTROPY_HEX,
    SECRET_IBM_CLOUD_IAM_KEY,
    SECRET_IBM_COS_HMAC,
    SECRET_JWT,
    SECRET_KEYWORD,
    SECRET_MAILCHIMP_KEY,
    SECRET_NPM_TOKEN,
    SECRET_OPENAI_KEY,
    SECRET_PASSWORD_IN_URL,
    SECRET_PRIVATE_KEY,
    SECRET_PYPI_TOKEN,
    SECRET_SENDGRID_KEY,
    SECRET_SIGNED_URL,
    SECRET_SLACK_TOKEN,
    SECRET_SLACK_WEBHOOK,
    SECRET_SOFTLAYER,
    SECRET_SQUARE_OAUTH,
    SECRET_STRIPE_KEY,
    SECRET_TELEGRAM_TOKEN,
    SECRET_TWILIO_KEY,
    SECRET_URL_TOKEN,
)
from . import plugins as ours
from .prefilter import KEYWORD_WORDS, PREFILTERS, Lookup, keyword_patterns_hold_the_denylist, lookup_order, present

STANDARD_PLUGINS: tuple[type[BasePlugin], ...] = (
    ArtifactoryDetector,
    AWSKeyDetector,
    AzureStorageKeyDetector,
    BasicAuthDetector,
    CloudantDetector,
    DiscordBotTokenDetector,
    GitHubTokenDetector,
    GitLabTokenDetector,
    Base64HighEntropyString,
    HexHighEntropyString,
    IbmCloudIamDetector,
    IbmCosHmacDetector,
    JwtTokenDetector,
    KeywordDetector,
    MailchimpDetector,
    NpmDetector,
    OpenAIDetector,
    PrivateKeyDetector,
    PypiTokenDetector,
    SendGridDetector,
    SlackDetector,
    SoftlayerDetector,
    SquareOAuthDetector,
    StripeDetector,
    TelegramBotTokenDetector,
    TwilioKeyDetector,
)
"""detect-secrets' standard credential plugins, all but IPPublicDetector (an address is no credential)."""

CODE_BY_TYPE: dict[str, str] = {
    ArtifactoryDetector.secret_type: SECRET_ARTIFACTORY,
    AWSKeyDetector.secret_type: SECRET_AWS_ACCESS_KEY,
    AzureStorageKeyDetector.secret_type: SECRET_AZURE_STORAGE_KEY,
    BasicAuthDetector.secret_type: SECRET_PASSWORD_IN_URL,
    CloudantDetector.secret_type: SECRET_CLOUDANT,
    DiscordBotTokenDetector.secret_type: SECRET_DISCORD_TOKEN,
    GitHubTokenDetector.secret_type: SECRET_GITHUB_TOKEN,
    GitLabTokenDetector.secret_type: SECRET_GITLAB_TOKEN,
    Base64HighEntropyString.secret_type: SECRET_HIGH_ENTROPY_BASE64,
    HexHighEntropyString.secret_type: SECRET_HIGH_ENTROPY_HEX,
    IbmCloudIamDetector.secret_type: SECRET_IBM_CLOUD_IAM_KEY,
    IbmCosHmacDetector.secret_type: SECRET_IBM_COS_HMAC,
    JwtTokenDetector.secret_type: SECRET_JWT,
    KeywordDetector.secret_type: SECRET_KEYWORD,
    MailchimpDetector.secret_type: SECRET_MAILCHIMP_KEY,
    NpmDetector.secret_type: SECRET_NPM_TOKEN,
    OpenAIDetector.secret_type: SECRET_OPENAI_KEY,
    PrivateKeyDetector.secret_type: SECRET_PRIVATE_KEY,
    PypiTokenDetector.secret_type: SECRET_PYPI_TOKEN,
    SendGridDetector.secret_type: SECRET_SENDGRID_KEY,
    SlackDetector.secret_type: SECRET_SLACK_TOKEN,
    SoftlayerDetector.secret_type: SECRET_SOFTLAYER,
    SquareOAuthDetector.secret_type: SECRET_SQUARE_OAUTH,
    StripeDetector.secret_type: SECRET_STRIPE_KEY,
    TelegramBotTokenDetector.secret_type: SECRET_TELEGRAM_TOKEN,
    TwilioKeyDetector.secret_type: SECRET_TWILIO_KEY,
    ours.AzureDevOpsTokenDetector.secret_type: SECRET_AZURE_DEVOPS_PAT,
    ours.DatabricksTokenDetector.secret_type: SECRET_DATABRICKS_TOKEN,
    ours.GitHubTokenDetector.secret_type: SECRET_GITHUB_TOKEN,
    ours.GoogleApiKeyDetector.secret_type: SECRET_GOOGLE_API_KEY,
    ours.SlackTokenDetector.secret_type: SECRET_SLACK_TOKEN,
    ours.SlackWebhookDetector.secret_type: SECRET_SLACK_WEBHOOK,
    ours.AwsSecretKeyDetector.secret_type: SECRET_AWS_SECRET_KEY,
    ours.StripeKeyDetector.secret_type: SECRET_STRIPE_KEY,
    ours.PrivateKeyBlockDetector.secret_type: SECRET_PRIVATE_KEY,
    ours.ConnectionStringDetector.secret_type: SECRET_CONNECTION_STRING,
    ours.AuthorizationHeaderDetector.secret_type: SECRET_AUTHORIZATION_HEADER,
    ours.SignedUrlDetector.secret_type: SECRET_SIGNED_URL,
    ours.UrlTokenDetector.secret_type: SECRET_URL_TOKEN,
    ours.UnquotedHexDetector.secret_type: SECRET_HIGH_ENTROPY_HEX,
}

FAILED = SCAN_DETECTOR_FAILED
"""A plugin raised on a line: the line is not established clean, so the file is refused."""

_VERIFY_FILTER = "detect_secrets.filters.common.is_ignored_due_to_verification_policies"


@dataclass(frozen=True)
class Hit:
    """One value a plugin recognised on one line. `value` never leaves the scan package."""

    line: int
    code: str
    value: str


class Engine:
    """One instance of every plugin, standard and ours, applied line by line."""

    def __init__(self, plugin_types: Iterable[type[BasePlugin]] = STANDARD_PLUGINS + ours.OUR_PLUGINS) -> None:
        self.plugins: list[BasePlugin] = [t() for t in plugin_types]
        for plugin in self.plugins:
            if isinstance(plugin, HighEntropyStringsPlugin):
                _bound_entropy(plugin)
        for plugin in self.plugins:
            if plugin.secret_type not in CODE_BY_TYPE:
                raise ValueError(f"no refusal code for the plugin {type(plugin).__name__}")

        self.base64_entropy: Base64HighEntropyString | None = next(
            (p for p in self.plugins if type(p) is Base64HighEntropyString), None
        )
        """The base64 entropy plugin, which judges a payload that cannot be classified (file_scan.py)."""
        selected = [_locator(plugin) for plugin in self.plugins]
        self.triggers: list[Trigger | None] = [trigger for trigger, _ in selected]
        """Per plugin, the literals one of which a file must hold for the plugin to find anything (None: any file)."""
        self.locators: list[Locator] = [locate for _, locate in selected]
        self.values: list[Values] = [_values(plugin) for plugin in self.plugins]
        self.finders: list[Finder | None] = [_finder(plugin) for plugin in self.plugins]
        cased = {w for t in self.triggers if t for w in t[1]}
        self.lookup: Lookup = lookup_order({w for t in self.triggers if t for w in t[0]} | {w.lower() for w in cased})
        """Every literal in lower case: those looked up as written are, only where their lower case stands."""
        self.cased_by_lower: dict[str, tuple[str, ...]] = {
            low: tuple(sorted(w for w in cased if w.lower() == low)) for low in {w.lower() for w in cased}
        }
        self.always: frozenset[int] = frozenset(i for i, t in enumerate(self.triggers) if t is None)
        self.by_lower: dict[str, frozenset[int]] = _by_literal(self.triggers, 0)
        self.by_cased: dict[str, frozenset[int]] = _by_literal(self.triggers, 1)

    def scan_lines(
        self, filename: str, lines: Iterable[tuple[int, str]], skip: Callable[[int, str], bool] | None = None
    ) -> list[Hit]:
        """Every hit in the given (line number, text) pairs; no plugin verifies anything over the network.

        `skip(line number, value)` names values the caller drops whatever their verdict (every
        occurrence sits where structure exempts it): those are not judged and give no hit.

        One pass over the text finds which of every plugin's literals stand in it (prefilter.py); a
        plugin none of whose literals stands is not run, and one that is runs only on the lines
        where its row patterns match or its literals stand; the entropy plugins read only the lines
        holding a run of their alphabet long enough to pass their limit (`_finder`). Text holding a
        character that case-insensitive matching and str.lower() read differently (İ, ı, ſ) is given
        to every plugin line by line.
        """
        settings = get_settings()
        if _VERIFY_FILTER in settings.filters:
            settings.disable_filters(_VERIFY_FILTER)
        pairs = lines if type(lines) is list else list(lines)
        texts = list(map(_RSTRIP, map(_TEXT, pairs)))  # each line's text.rstrip(), in C
        numbered = list(zip(map(_NUMBER, pairs), texts, strict=False))
        whole = "\n".join(texts)
        lowered = whole.lower()
        starts = _starts(texts)
        plain = (
            len(lowered) == len(whole)
            and whole.count("\n") == len(numbered) - 1
            and not any(c in whole for c in _UNLIKE_LOWER)
        )
        found_lower = present(lowered, self.lookup) if plain else set()
        found_cased = {
            w for low in found_lower & self.cased_by_lower.keys() for w in self.cased_by_lower[low] if w in whole
        }
        hits: list[Hit] = []
        entropies = Reuse()
        verdicts: dict[tuple[str, str, tuple[bool, bool]], bool] = {}

        def passes(plugin: BasePlugin, value: str, text: str) -> bool:
            key = (value, text, (isinstance(plugin, RegexBasedDetector), isinstance(plugin, KeywordDetector)))
            verdict = verdicts.get(key)
            if verdict is None:
                verdict = verdicts[key] = not _filtered(plugin, value, text)
            return verdict

        if plain:  # the plugins without literals, and those one of whose literals stands
            chosen = set(self.always)
            for word in found_lower:
                chosen |= self.by_lower.get(word, _NONE)
            for word in found_cased:
                chosen |= self.by_cased[word]
            order: Iterable[int] = sorted(chosen)
        else:
            order = range(len(self.plugins))
        for index in order:
            plugin, locate = self.plugins[index], self.locators[index]
            values, finder = self.values[index], self.finders[index]
            if plain:
                if finder is not None:
                    try:
                        by_row = finder(numbered, whole, starts, entropies, skip)
                    except Exception:  # found again line by line below, where a failure is reported
                        by_row = None
                    if by_row is not None:
                        for row in sorted(by_row):
                            number, text = numbered[row]
                            for value in by_row[row]:
                                if value and passes(plugin, value, text):
                                    hits.append(Hit(number, _code(plugin, value), value))
                        continue
                    rows: Iterable[int] = range(len(numbered))
                else:
                    rows = locate(whole, lowered, starts, found_lower, found_cased)
            else:
                rows = range(len(numbered))
            for row in rows:
                number, text = numbered[row]
                if not text:
                    continue
                try:
                    found = values(filename, text, number)
                except Exception:  # a detector's own failure (RecursionError in a JWT's JSON …) fails closed
                    hits.append(Hit(number, FAILED, ""))
                    continue
                for value in found:
                    if value and not (skip and skip(number, value)) and passes(plugin, value, text):
                        hits.append(Hit(number, _code(plugin, value), value))
        return hits


def _starts(texts: list[str]) -> list[int]:
    """Where each row begins in the rows joined by newlines (each row's length and its newline, summed in C)."""
    return list(accumulate(map(add, map(len, texts[:-1]), repeat(1)), initial=0)) if texts else []


_RSTRIP = methodcaller("rstrip")
_NUMBER = itemgetter(0)
_TEXT = itemgetter(1)


_NONE: frozenset[int] = frozenset()


def _by_literal(triggers: list[Trigger | None], family: int) -> dict[str, frozenset[int]]:
    """Literal → the plugins (indices) it triggers, for the lower-case (0) or as-written (1) literals."""
    out: dict[str, set[int]] = {}
    for index, trigger in enumerate(triggers):
        for word in trigger[family] if trigger else ():
            out.setdefault(word, set()).add(index)
    return {word: frozenset(indices) for word, indices in out.items()}


def _code(plugin: BasePlugin, value: str) -> str:
    """The refusal code of a hit; detect-secrets' Slack and AWS plugins each find two shapes."""
    if isinstance(plugin, SlackDetector) and "hooks.slack.com" in value.lower():
        return SECRET_SLACK_WEBHOOK
    if isinstance(plugin, AWSKeyDetector) and len(value) == 40:
        return SECRET_AWS_SECRET_KEY
    return CODE_BY_TYPE[plugin.secret_type]


def _bound_entropy(plugin: HighEntropyStringsPlugin) -> None:
    """Skip the count where it cannot matter: a string of n characters has at most log2(n) bits of entropy."""
    full = plugin.calculate_shannon_entropy
    limit = plugin.entropy_limit

    def calculate(data: str) -> float:
        if len(data) < 2 or math.log2(len(data)) <= limit:
            return 0.0
        return full(data)

    plugin.calculate_shannon_entropy = calculate  # type: ignore[method-assign]  # this plugin instance alone


Trigger = tuple[frozenset[str], frozenset[str]]
"""Literals (in the lower case, as written) one of which a file holds wherever the plugin can find anything."""

Locator = Callable[[str, str, list[int], set[str], set[str]], Iterable[int]]
"""The rows (indices) a plugin can find anything on, given the joined rows, their lower case, the row starts and
the literals found in the lower case and as written (prefilter.present)."""

Values = Callable[[str, str, int], Iterable[str]]
"""The values a plugin finds in one line (filename, line, line number)."""

_UNLIKE_LOWER = ("\u0130", "\u0131", "\u017f")
"""İ, ı and ſ: case-insensitive patterns read them as i, i and s, str.lower() does not."""


_BASE32_LOWER = str.maketrans(dict.fromkeys("abcdefghijklmnopqrstuvwxyz234567", "a"))
"""Each of a–z, 2–7 read as "a", every other character left as it is (none of them an "a")."""


_NOT_MARKED = re.compile("[^a]")
"""A character a translation to "a" left as it was: where a run of the alphabet marked ends."""

_MARKED_RUN = re.compile("a*")
"""The marked run from a position on: its end is where `_NOT_MARKED` first matches from there, or the text's end
(matched by a repeat of one character, far cheaper than a search for any other; issue #20)."""

_ALNUM = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")


def _azure_devops_rows(whole: str, lowered: str, starts: list[int], *_: set[str]) -> list[int]:
    """Rows holding JQQJ99 (the 84-character form) or exactly 52 of a–z, 2–7 together with no letter or digit
    on either side (the base32 form, `(?<![A-Za-z0-9])([a-z2-7]{52})(?![A-Za-z0-9])`: a longer run has a
    letter or digit beside every 52 of it; a newline, like a line's end, is neither)."""
    rows = set(_literal_rows(whole, "JQQJ99", starts))
    marked = whole.translate(_BASE32_LOWER)
    run = "a" * 52
    at = marked.find(run)
    while at >= 0:
        end = _MARKED_RUN.match(marked, at + 52).end()  # type: ignore[union-attr]  # a* always matches
        alone = (at == 0 or whole[at - 1] not in _ALNUM) and (end == len(whole) or whole[end] not in _ALNUM)
        if end - at == 52 and alone:
            rows.add(_row(starts, at))
        at = marked.find(run, end)
    return sorted(rows)


_CUSTOM_ROWS: dict[type, Locator] = {ours.AzureDevOpsTokenDetector: _azure_devops_rows}
"""Plugins whose rows are found by a function of their own (prefilter.py gives them no literal)."""


def _row(starts: list[int], offset: int) -> int:
    return bisect_right(starts, offset) - 1


def _every_row(whole: str, lowered: str, starts: list[int], *_: set[str]) -> Iterable[int]:
    return range(len(starts))


def _literal_rows(text: str, literal: str, starts: list[int]) -> Iterator[int]:
    """Rows of the joined rows (or a same-length reading of them) in which the literal stands."""
    last = len(starts) - 1
    at = text.find(literal)
    while at >= 0:
        row = _row(starts, at)
        yield row
        if row >= last:
            return
        at = text.find(literal, starts[row + 1])


def _literal_holding_rows(lower: frozenset[str], cased: frozenset[str]) -> Locator:
    """Rows holding one of the literals found (a match lies in one row, and holds one of them)."""

    def locate(whole: str, lowered: str, starts: list[int], found_lower: set[str], found_cased: set[str]) -> list[int]:
        rows: set[int] = set()
        for word in lower & found_lower:
            rows.update(_literal_rows(lowered, word, starts))
        for word in cased & found_cased:
            rows.update(_literal_rows(whole, word, starts))
        return sorted(rows)

    return locate


def _pattern_rows(patterns: tuple[Pattern[str], ...], lower: bool = False) -> Locator:
    """Rows where a match of one of the patterns begins: a match in one row alone is a match in the joined text.

    After a match, the search resumes at the next row, so a match that runs on past a row's end
    (a \\s matching the newline) cannot hide one that begins in the next.
    """

    def locate(whole: str, lowered: str, starts: list[int], *_: set[str]) -> list[int]:
        rows: set[int] = set()
        last = len(starts) - 1
        text = lowered if lower else whole
        for pattern in patterns:
            pos = 0
            while (m := pattern.search(text, pos)) is not None:
                row = _row(starts, m.start())
                rows.add(row)
                if row >= last:
                    break
                pos = starts[row + 1]
        return sorted(rows)

    return locate


def _pattern_in_literal_rows(
    patterns: tuple[Pattern[str], ...], lower: bool, literals_lower: frozenset[str], literals_cased: frozenset[str]
) -> Locator:
    """Rows holding one of the literals found and a match of one of the patterns within the row.

    A match of the plugin's patterns lies in one row and holds a literal and a match of a row
    pattern (prefilter.py); the row pattern is searched between the row's start and end, where
    its look-aheads read the row's end as they read the end of the line alone.
    """
    holding = _literal_holding_rows(literals_lower, literals_cased)

    def locate(whole: str, lowered: str, starts: list[int], found_lower: set[str], found_cased: set[str]) -> list[int]:
        text = lowered if lower else whole
        last = len(starts) - 1
        rows = []
        for row in holding(whole, lowered, starts, found_lower, found_cased):
            end = starts[row + 1] - 1 if row < last else len(text)
            if any(p.search(text, starts[row], end) is not None for p in patterns):
                rows.append(row)
        return rows

    return locate


_MARGIN = 1e-6
"""Far above the rounding of a sum of at most 66 terms, far below any step between two limits."""


def _shortest_above(limit: float) -> int:
    """The shortest string `_bound_entropy` gives more than 0: a shorter one's entropy never exceeds the limit."""
    n = 2
    while math.log2(n) <= limit:
        n += 1
    return n


def _analysis_is(plugin: BasePlugin, base: type[HighEntropyStringsPlugin | KeywordDetector]) -> bool:
    """Whether the plugin is a `base` whose line and string analysis are `base`'s own, not overridden."""
    kind = type(plugin)
    return isinstance(plugin, base) and kind.analyze_line is base.analyze_line \
        and kind.analyze_string is base.analyze_string


def _is_entropy_plugin(plugin: BasePlugin) -> TypeGuard[HighEntropyStringsPlugin]:
    """A high-entropy plugin whose line analysis is detect-secrets' own (quoted runs, then the entropy limit)."""
    return _analysis_is(plugin, HighEntropyStringsPlugin)


def _locator(plugin: BasePlugin) -> tuple[Trigger | None, Locator]:
    """The literals a file must hold for the plugin to run, and the rows it is run on (prefilter.py).

    A plugin whose line analysis or patterns are not those its condition was derived from runs on every row.
    """
    kind = type(plugin)
    if isinstance(plugin, KeywordDetector):
        if _is_known_keyword_plugin(plugin) and keyword_patterns_hold_the_denylist():
            return (KEYWORD_WORDS, frozenset()), _literal_holding_rows(KEYWORD_WORDS, frozenset())
        return None, _every_row
    if not isinstance(plugin, RegexBasedDetector) or kind.analyze_line is not BasePlugin.analyze_line:
        return None, _every_row
    condition = PREFILTERS.get(kind)
    if condition is None or condition.derived_from != tuple((p.pattern, p.flags) for p in plugin.denylist):
        return None, _every_row
    trigger = (condition.lower, condition.cased) if condition.lower or condition.cased else None
    if kind in _CUSTOM_ROWS:
        return trigger, _CUSTOM_ROWS[kind]
    if condition.rows and trigger is not None and not condition.rows_whole:
        return trigger, _pattern_in_literal_rows(condition.rows, condition.rows_lower, condition.lower, condition.cased)
    if condition.rows:
        return trigger, _pattern_rows(condition.rows, condition.rows_lower)
    if trigger is None:
        return None, _every_row
    return trigger, _literal_holding_rows(condition.lower, condition.cased)


@dataclass
class Reuse:
    """What one scan_lines call's finders share (`_finder`)."""

    marked: dict[str, str] = field(default_factory=dict)
    """The joined rows with an alphabet marked, by alphabet."""
    passes: dict[tuple[Callable[[HighEntropyStringsPlugin, str], float], str, float], dict[str, bool]] = field(
        default_factory=dict
    )
    """Whether a string's entropy passes, by computation (the entropy function, the alphabet, the limit)."""


Finder = Callable[
    [list[tuple[int, str]], str, list[int], Reuse, Callable[[int, str], bool] | None], dict[int, set[str]]
]
"""The values a plugin finds on each row, given the rows, the rows joined, the row starts, the call's
reuse (entropies by computation, the joined rows with an alphabet marked, by alphabet) and the values to skip."""


_QUOTES = ("'", '"')


def _finder(plugin: BasePlugin) -> Finder | None:
    """For a high-entropy plugin, what its analyze_line finds on each row, without building a PotentialSecret each.

    analyze_line keeps each distinct string its pattern reads in the line whose entropy exceeds the
    limit. Such a string is a run of the plugin's alphabet at least `_shortest_above` long (20 for
    our bare hex), and it is the whole of the longest run there (a maximal run):

    - the quoted pattern `(['"])([alphabet]+)(\\1)` reads a maximal run with the same quote on both
      sides, when the quote before it is not the closing quote of the string before. A quote closes
      a string only right after a run of the alphabet, so a quote after any other character (or at
      a line's start) opens one; a quote right after a run is left to the pattern itself, which
      reads that line as analyze_line reads it;
    - the bare hex pattern (UNQUOTED_HEX) reads a maximal run whose neighbours its look-arounds
      admit; they read a newline as they read a line's end or start, so it is tried at the run in
      the joined lines.

    So only the maximal runs at least that long are looked at, found in the joined lines with the
    alphabet marked. A string's entropy is computed once per call (and shared by plugins of the
    same computation, alphabet and limit: the two hex plugins). A string of k distinct characters,
    all of the alphabet, has an entropy of at most log2(k) (the hex plugin's adjustment only lowers
    it), so one with log2(k) below the limit by more than rounding could ever move it is not counted.
    """
    if not _is_entropy_plugin(plugin) or "a" not in plugin.charset or "\n" in plugin.charset:
        return None
    if any(q in plugin.charset for q in _QUOTES):
        return None
    regex = plugin.regex
    bare = regex is ours.UNQUOTED_HEX
    quoted = r'([\'"])([{}]+)(\1)'.format(re.escape(plugin.charset))
    if not bare and regex.pattern != quoted:
        return None
    group = 2 if regex.groups > 1 else regex.groups
    shortest = _shortest_above(plugin.entropy_limit)
    run = "a" * max(shortest, ours.UNQUOTED_HEX_RUN if bare else 1)
    alphabet = str.maketrans(dict.fromkeys(plugin.charset, "a"))
    entropy = plugin.calculate_shannon_entropy
    limit = plugin.entropy_limit
    computation = (type(plugin).calculate_shannon_entropy, plugin.charset, limit)
    ceiling = limit - _MARGIN

    def find(
        numbered: list[tuple[int, str]], whole: str, starts: list[int], known: Reuse,
        skip: Callable[[int, str], bool] | None = None,
    ) -> dict[int, set[str]]:
        if plugin.regex is not regex:
            raise ValueError("the plugin's pattern changed")
        marked = known.marked.get(plugin.charset)
        if marked is None:
            marked = known.marked[plugin.charset] = whole.translate(alphabet)
        found: dict[int, set[str]] = {}
        passes: dict[str, bool] = known.passes.setdefault(computation, {})
        n = len(whole)

        def keep(row: int, value: str) -> None:
            # kept when its entropy passes and it is not skipped, asked in the cheapest order: the bound on
            # its distinct characters (a hex run never passes base64's limit), the skip, the count
            verdict = passes.get(value)
            if verdict is False:
                return
            if verdict is None and math.log2(len(set(value))) <= ceiling:
                passes[value] = False
                return
            if skip is not None and skip(numbered[row][0], value):
                return
            if verdict is None:
                verdict = passes[value] = entropy(value) > limit
            if verdict:
                found.setdefault(row, set()).add(value)

        at = marked.find(run)
        while at >= 0:
            end = _MARKED_RUN.match(marked, at + len(run)).end()  # type: ignore[union-attr]  # a* always matches
            if bare:
                m = regex.match(whole, at)
                if m is not None:
                    keep(_row(starts, at), m.group(group))
            elif at > 0 and whole[at - 1] in _QUOTES and end < n and whole[end] == whole[at - 1]:
                row = _row(starts, at)
                if at - 1 == starts[row] or marked[at - 2] != "a":
                    keep(row, whole[at:end])
                else:  # the quote may close the string before: the line is read by the pattern itself
                    for m in regex.finditer(numbered[row][1]):
                        value = m.group(group)
                        if len(value) >= shortest:
                            keep(row, value)
                    if row + 1 >= len(starts):
                        break
                    end = max(end, starts[row + 1])
            at = marked.find(run, end)
        return found

    return find


def _values(plugin: BasePlugin) -> Values:
    """The values a plugin finds in a line: its own analyze_line, or, for a high-entropy plugin, the same inline.

    detect-secrets' HighEntropyStringsPlugin.analyze_line keeps each distinct string its pattern
    reads whose entropy exceeds the limit (verification is off); the inline form skips building a
    PotentialSecret for every quoted string, and the entropy of strings too short to pass.
    """
    if _is_known_keyword_plugin(plugin):
        return _keyword_values(plugin)
    if not _is_entropy_plugin(plugin):
        return lambda filename, line, number: [
            found.secret_value or "" for found in plugin.analyze_line(filename=filename, line=line, line_number=number)
        ]
    shortest = _shortest_above(plugin.entropy_limit)
    entropy = plugin.calculate_shannon_entropy
    limit = plugin.entropy_limit
    return lambda filename, line, number: {
        value for value in plugin.analyze_string(line) if len(value) >= shortest and entropy(value) > limit
    }


def _is_known_keyword_plugin(plugin: BasePlugin) -> TypeGuard[KeywordDetector]:
    # the isinstance is _analysis_is' own first test, repeated for mypy (it narrows where a bool cannot)
    return isinstance(plugin, KeywordDetector) and _analysis_is(plugin, KeywordDetector) \
        and plugin.keyword_exclude is None


def _keyword_values(plugin: KeywordDetector) -> Values:
    """KeywordDetector.analyze_line's values, each of its patterns that begins with the denylist tried only where
    a denylist word begins (issue #11 item 4: search tried the whole alternation at every position of a line).

    analyze_line picks the patterns of the file's type and keeps, for each, the group of its first match
    (search). A match of a pattern that begins with the denylist group begins where a denylist word does,
    so the first candidate position at which the pattern matches (match, anchored there) gives search's
    match. A line whose lower case is not read position for position as the pattern's case-insensitive
    matching reads it (İ, ı, ſ, or a change of length) goes to analyze_line itself.
    """
    from detect_secrets.plugins.keyword import (
        DENYLIST_REGEX,
        QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP,
        REGEX_BY_FILETYPE,
    )
    from detect_secrets.util.filetype import determine_file_type

    words = tuple(sorted(KEYWORD_WORDS))

    def values(filename: str, line: str, number: int) -> Iterable[str]:
        lowered = line.lower()
        if len(lowered) != len(line) or any(c in line for c in _UNLIKE_LOWER):
            return [found.secret_value or "" for found in plugin.analyze_line(filename=filename, line=line,
                                                                                line_number=number)]
        table = REGEX_BY_FILETYPE.get(determine_file_type(filename), QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP)
        starts: list[int] | None = None
        out: set[str] = set()
        for pattern, group in table.items():
            if pattern.pattern.startswith(DENYLIST_REGEX):
                if starts is None:
                    starts = sorted({at for word in words for at in _overlapping(lowered, word)})
                found = next((m for at in starts if (m := pattern.match(line, at)) is not None), None)
            else:
                found = pattern.search(line)
            if found is not None:
                out.add(found.group(group))
        return out

    return values


def _overlapping(text: str, word: str) -> Iterator[int]:
    at = text.find(word)
    while at >= 0:
        yield at
        at = text.find(word, at + 1)


def _filtered(plugin: BasePlugin, value: str, line: str) -> bool:
    """detect-secrets' default heuristic filters, by name (its allow-list comment excluded).

    The plugin counts only as a regex plugin or not, the keyword plugin or not (scan_lines reuses a
    verdict for the same value and line on that ground).
    """
    if (
        heuristic.is_sequential_string(value)
        or heuristic.is_potential_uuid(value)
        or heuristic.is_templated_secret(value)
        or heuristic.is_prefixed_with_dollar_sign(value)
        or heuristic.is_not_alphanumeric_string(value)
    ):
        return True
    if isinstance(plugin, RegexBasedDetector):
        return False
    if heuristic.is_likely_id_string(value, line, plugin):
        return True
    if isinstance(plugin, KeywordDetector):
        return heuristic.is_indirect_reference(line) or _PLAIN_WORDS.fullmatch(value) is not None
    return False


_PLAIN_WORDS = re.compile(r"[A-Za-z][A-Za-z .,'-]*")
"""A secret-named member whose value is plain words ("required", "Jane Doe") holds no credential shape."""


_ENGINE: Engine | None = None


def engine() -> Engine:
    """The process's one engine (plugins hold compiled patterns only)."""
    global _ENGINE
    if _ENGINE is None:
        _ENGINE = Engine()
    return _ENGINE
