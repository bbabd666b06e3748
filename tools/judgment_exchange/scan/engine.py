"""The credential scan's engine: detect-secrets 1.5.0 in-process, with an explicit plugin list (RFC 0019 §4).

No baseline, no settings file, no network: the plugins are instantiated here, each line of a file is
given to each plugin once, and detect-secrets' own heuristic filters are applied by name. Its
allow-list comment (`pragma: allowlist secret`) is not honoured: an entry is data, and a comment in
it cannot silence the scan. Values found stay inside this module and its caller; a report never
carries them.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Pattern

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
from detect_secrets.plugins import keyword
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

from . import plugins as ours

STANDARD_PLUGINS: tuple[type, ...] = (
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
    ArtifactoryDetector.secret_type: "secret-artifactory",
    AWSKeyDetector.secret_type: "secret-aws-access-key",
    AzureStorageKeyDetector.secret_type: "secret-azure-storage-key",
    BasicAuthDetector.secret_type: "secret-password-in-url",
    CloudantDetector.secret_type: "secret-cloudant",
    DiscordBotTokenDetector.secret_type: "secret-discord-token",
    GitHubTokenDetector.secret_type: "secret-github-token",
    GitLabTokenDetector.secret_type: "secret-gitlab-token",
    Base64HighEntropyString.secret_type: "secret-high-entropy-base64",
    HexHighEntropyString.secret_type: "secret-high-entropy-hex",
    IbmCloudIamDetector.secret_type: "secret-ibm-cloud-iam-key",
    IbmCosHmacDetector.secret_type: "secret-ibm-cos-hmac",
    JwtTokenDetector.secret_type: "secret-jwt",
    KeywordDetector.secret_type: "secret-keyword",
    MailchimpDetector.secret_type: "secret-mailchimp-key",
    NpmDetector.secret_type: "secret-npm-token",
    OpenAIDetector.secret_type: "secret-openai-key",
    PrivateKeyDetector.secret_type: "secret-private-key",
    PypiTokenDetector.secret_type: "secret-pypi-token",
    SendGridDetector.secret_type: "secret-sendgrid-key",
    SlackDetector.secret_type: "secret-slack-token",
    SoftlayerDetector.secret_type: "secret-softlayer",
    SquareOAuthDetector.secret_type: "secret-square-oauth",
    StripeDetector.secret_type: "secret-stripe-key",
    TelegramBotTokenDetector.secret_type: "secret-telegram-token",
    TwilioKeyDetector.secret_type: "secret-twilio-key",
    ours.AzureDevOpsTokenDetector.secret_type: "secret-azure-devops-pat",
    ours.DatabricksTokenDetector.secret_type: "secret-databricks-token",
    ours.GitHubTokenDetector.secret_type: "secret-github-token",
    ours.GoogleApiKeyDetector.secret_type: "secret-google-api-key",
    ours.SlackTokenDetector.secret_type: "secret-slack-token",
    ours.SlackWebhookDetector.secret_type: "secret-slack-webhook",
    ours.AwsSecretKeyDetector.secret_type: "secret-aws-secret-key",
    ours.StripeKeyDetector.secret_type: "secret-stripe-key",
    ours.PrivateKeyBlockDetector.secret_type: "secret-private-key",
    ours.ConnectionStringDetector.secret_type: "secret-connection-string",
    ours.AuthorizationHeaderDetector.secret_type: "secret-authorization-header",
    ours.SignedUrlDetector.secret_type: "secret-signed-url",
    ours.UrlTokenDetector.secret_type: "secret-url-token",
    ours.UnquotedHexDetector.secret_type: "secret-high-entropy-hex",
}

FAILED = "scan-detector-failed"
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

    def __init__(self, plugin_types: Iterable[type] = STANDARD_PLUGINS + ours.OUR_PLUGINS) -> None:
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
        self.screens: list[Screen | None] = [_SCREENS.get(type(plugin)) for plugin in self.plugins]
        self.locators: list[Locator] = [_locator(plugin) for plugin in self.plugins]
        self.values: list[Values] = [_values(plugin) for plugin in self.plugins]
        self.finders: list[Finder | None] = [_finder(plugin) for plugin in self.plugins]

    def scan_lines(self, filename: str, lines: Iterable[tuple[int, str]]) -> list[Hit]:
        """Every hit in the given (line number, text) pairs; no plugin verifies anything over the network.

        Each plugin is run only on the lines where it can find something: where a word every match
        of its patterns holds appears, or where a match of its patterns begins (in the lines
        joined); the entropy plugins read only the lines holding a run of their alphabet long enough
        to pass their limit (`_finder`). Text holding a character that case-insensitive matching and
        str.lower() read differently (İ, ı, ſ) is given to every plugin line by line.
        """
        settings = get_settings()
        if _VERIFY_FILTER in settings.filters:
            settings.disable_filters(_VERIFY_FILTER)
        numbered = [(number, text.rstrip()) for number, text in lines]
        whole = "\n".join(text for _, text in numbered)
        lowered = whole.lower()
        starts = _starts(numbered)
        plain = (
            len(lowered) == len(whole)
            and whole.count("\n") == len(numbered) - 1
            and not any(c in whole for c in _UNLIKE_LOWER)
        )
        hits: list[Hit] = []
        entropies: dict = {}
        verdicts: dict[tuple[str, str, tuple[bool, bool]], bool] = {}

        def passes(plugin: BasePlugin, value: str, text: str) -> bool:
            key = (value, text, (isinstance(plugin, RegexBasedDetector), isinstance(plugin, KeywordDetector)))
            verdict = verdicts.get(key)
            if verdict is None:
                verdict = verdicts[key] = not _filtered(plugin, value, text)
            return verdict

        for plugin, screen, locate, values, finder in zip(
            self.plugins, self.screens, self.locators, self.values, self.finders
        ):
            if plain:
                if screen is not None and not screen(whole, lowered):
                    continue
                if finder is not None:
                    try:
                        by_row = finder(numbered, whole, starts, entropies)
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
                    rows = locate(whole, lowered, starts)
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
                    if value and passes(plugin, value, text):
                        hits.append(Hit(number, _code(plugin, value), value))
        return hits


def _starts(numbered: list[tuple[int, str]]) -> list[int]:
    """Where each row begins in the rows joined by newlines."""
    out, at = [], 0
    for _, text in numbered:
        out.append(at)
        at += len(text) + 1
    return out


def _code(plugin: BasePlugin, value: str) -> str:
    """The refusal code of a hit; detect-secrets' Slack and AWS plugins each find two shapes."""
    if isinstance(plugin, SlackDetector) and "hooks.slack.com" in value.lower():
        return "secret-slack-webhook"
    if isinstance(plugin, AWSKeyDetector) and len(value) == 40:
        return "secret-aws-secret-key"
    return CODE_BY_TYPE[plugin.secret_type]


def _bound_entropy(plugin: HighEntropyStringsPlugin) -> None:
    """Skip the count where it cannot matter: a string of n characters has at most log2(n) bits of entropy."""
    full = plugin.calculate_shannon_entropy
    limit = plugin.entropy_limit

    def calculate(data: str) -> float:
        if len(data) < 2 or math.log2(len(data)) <= limit:
            return 0.0
        return full(data)

    plugin.calculate_shannon_entropy = calculate  # type: ignore[method-assign]


Screen = Callable[[str, str], bool]
"""A test of the whole text (and its lower case) that holds wherever the plugin can find anything."""

Locator = Callable[[str, str, list[int]], Iterable[int]]
"""The rows (indices) a plugin can find anything on, given the joined rows, their lower case and row starts."""

Values = Callable[[str, str, int], Iterable[str]]
"""The values a plugin finds in one line (filename, line, line number)."""

_UNLIKE_LOWER = ("\u0130", "\u0131", "\u017f")
"""İ, ı and ſ: case-insensitive patterns read them as i, i and s, str.lower() does not."""


def _words_and_run(words: tuple[str, ...], run: str) -> Screen:
    pattern = re.compile(run)
    return lambda text, lowered: any(w in lowered for w in words) and pattern.search(text) is not None


_BASE32_LOWER = str.maketrans(dict.fromkeys("abcdefghijklmnopqrstuvwxyz234567", "a"))
"""Each of a–z, 2–7 read as "a", every other character left as it is (none of them an "a")."""


def _run_of_52(text: str) -> bool:
    """Whether 52 of a–z, 2–7 stand together."""
    return "a" * 52 in text.translate(_BASE32_LOWER)


def _azure_devops_rows(whole: str, lowered: str, starts: list[int]) -> list[int]:
    """Rows holding JQQJ99 (the 84-character form) or 52 of a–z, 2–7 together (the base32 form)."""
    rows = set(_literal_rows(whole, "JQQJ99", starts))
    rows.update(_literal_rows(whole.translate(_BASE32_LOWER), "a" * 52, starts))
    return sorted(rows)


_TELEGRAM_COLON = re.compile(r":(?<=\d{8}:)[0-9A-Za-z_-]{35}")
"""A bot token's colon: eight digits before it, 35 of its alphabet after."""

_DISCORD_MIDDLE = re.compile(r"\.[a-zA-Z\d_-]{6}\.")

_SCREENS: dict[type, Screen] = {
    CloudantDetector: _words_and_run(("cl",), r"(?i)[0-9a-f]{64}|[a-z]{24}"),
    IbmCloudIamDetector: _words_and_run(("key", "pwd", "pass", "token"), r"[a-zA-Z0-9_\-]{44}"),
    IbmCosHmacDetector: _words_and_run(("secret",), r"(?i)[a-f0-9]{48}"),
    SoftlayerDetector: _words_and_run(("sl", "softlayer"), r"(?i)[a-z0-9]{64}"),
    ours.AzureDevOpsTokenDetector: lambda text, lowered: "JQQJ99" in text or _run_of_52(text),
    DiscordBotTokenDetector: lambda text, lowered: _DISCORD_MIDDLE.search(text) is not None,
}
"""Cheaper necessary conditions for the slowest patterns: each holds wherever the plugin can find anything."""


def _expand(word: str) -> tuple[str, ...]:
    """The literal spellings of a keyword denylist word ("api_?key" is "api_key" or "apikey")."""
    spellings = (word.replace("_?", "_"), word.replace("_?", "")) if "_?" in word else (word,)
    if any(re.escape(s) != s or re.fullmatch(word, s) is None for s in spellings):
        raise ValueError(f"the keyword denylist word {word!r} is not a literal with optional underscores")
    return spellings


_WORDS: dict[type, tuple[str, ...]] = {
    KeywordDetector: tuple(s for word in keyword.DENYLIST for s in _expand(word)),
    AWSKeyDetector: ("a3t", "abia", "acca", "akia", "asia", "aws"),
    MailchimpDetector: ("-us",),
    StripeDetector: ("k_live_",),
    PrivateKeyDetector: ("begin ", "putty-user-key-file-2"),
    NpmDetector: ("/:_authtoken=",),  # its `//.+` ran to the line's end from every "//" (issue #11 item 4)
    GitLabTokenDetector: ("gl", "gr1348941"),
    SlackDetector: ("xox", "hooks.slack.com"),
    ours.AuthorizationHeaderDetector: ("bearer", "basic", "authorization", "api", "token", "subscription-key"),
    ours.ConnectionStringDetector: ("password", "passwd", "pwd", "accountkey", "sharedaccesskey"),
    ours.SignedUrlDetector: ("sig", "signature", "x-amz-security-token"),
    ours.UrlTokenDetector: ("token", "secret", "api"),
    ours.StripeKeyDetector: ("sk_", "rk_", "whsec_"),
    ours.SlackTokenDetector: ("xox", "xapp-"),
    ours.GitHubTokenDetector: ("github_pat_", "gh"),
    ours.DatabricksTokenDetector: ("dapi", "dose"),
    ours.GoogleApiKeyDetector: ("aiza",),
    ours.SlackWebhookDetector: ("hooks.slack.com",),
    ours.AwsSecretKeyDetector: ("aws",),
}
"""Words (lower case) one of which every match of the plugin's patterns holds, case ignored or not."""


_ROW_PATTERNS: dict[type, tuple[Pattern, bool]] = {
    CloudantDetector: (re.compile(r"cl(?:oudant|ou)?[_-]?(?:api)?(?:key|pw|pass|token)|cloudant\.com"), True),
    IbmCloudIamDetector: (re.compile(r"(?:key|pwd|pass|token)[\"']?\]? *[=: ]"), True),
    IbmCosHmacDetector: (re.compile(r"secret[-_]?(?:access)?[-_]?key"), True),
    SoftlayerDetector: (re.compile(r"(?:softlayer|sl)[_-]?(?:api)?[_-]?(?:key|pwd|pass|token)|softlayer"), True),
    ArtifactoryDetector: (re.compile(r"AKC[a-zA-Z0-9]{10}|AP[\dABCDEF][a-zA-Z0-9]{8}"), False),
    TelegramBotTokenDetector: (_TELEGRAM_COLON, False),
}
"""A pattern (on the lower case text, or on the text) a part of every match of the plugin's patterns matches.

The assignment forms (name, optional quote and bracket, spaces, one of = : := => :: or spaces)
all hold their keyword run together and, for IBM Cloud IAM, an assignment's first character next.
"""


def _row(starts: list[int], offset: int) -> int:
    return bisect_right(starts, offset) - 1


def _every_row(whole: str, lowered: str, starts: list[int]) -> Iterable[int]:
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


def _word_rows(words: tuple[str, ...]) -> Locator:
    """Rows holding one of the words, in lower case (a match lies in one row, and holds the word)."""

    def locate(whole: str, lowered: str, starts: list[int]) -> list[int]:
        rows: set[int] = set()
        for word in words:
            if word in lowered:
                rows.update(_literal_rows(lowered, word, starts))
        return sorted(rows)

    return locate


def _pattern_rows(patterns: list[Pattern], lower: bool = False) -> Locator:
    """Rows where a match of one of the patterns begins: a match in one row alone is a match in the joined text.

    After a match, the search resumes at the next row, so a match that runs on past a row's end
    (a \\s matching the newline) cannot hide one that begins in the next.
    """

    def locate(whole: str, lowered: str, starts: list[int]) -> list[int]:
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


_MARGIN = 1e-6
"""Far above the rounding of a sum of at most 66 terms, far below any step between two limits."""


def _shortest_above(limit: float) -> int:
    """The shortest string `_bound_entropy` gives more than 0: a shorter one's entropy never exceeds the limit."""
    n = 2
    while math.log2(n) <= limit:
        n += 1
    return n


def _is_entropy_plugin(plugin: BasePlugin) -> bool:
    """A high-entropy plugin whose line analysis is detect-secrets' own (quoted runs, then the entropy limit)."""
    kind = type(plugin)
    return (
        isinstance(plugin, HighEntropyStringsPlugin)
        and kind.analyze_line is HighEntropyStringsPlugin.analyze_line
        and kind.analyze_string is HighEntropyStringsPlugin.analyze_string
    )


def _locator(plugin: BasePlugin) -> Locator:
    """The rows a plugin is run on; every row for a plugin whose line analysis we do not know."""
    kind = type(plugin)
    if isinstance(plugin, KeywordDetector):
        known = kind.analyze_line is KeywordDetector.analyze_line and kind.analyze_string is KeywordDetector.analyze_string
        return _word_rows(_WORDS[KeywordDetector]) if known and plugin.keyword_exclude is None else _every_row
    if isinstance(plugin, HighEntropyStringsPlugin):
        return _every_row
    if isinstance(plugin, RegexBasedDetector) and kind.analyze_line is BasePlugin.analyze_line:
        if kind is ours.AzureDevOpsTokenDetector:
            return _azure_devops_rows
        if kind in _ROW_PATTERNS:
            pattern, lower = _ROW_PATTERNS[kind]
            return _pattern_rows([pattern], lower)
        if kind in _WORDS:
            return _word_rows(_WORDS[kind])
        return _pattern_rows([re.compile(p.pattern, p.flags | re.M) for p in plugin.denylist])
    return _every_row


Finder = Callable[[list[tuple[int, str]], str, list[int], dict], dict[int, set[str]]]
"""The values a plugin finds on each row, given the rows, the rows joined, the row starts and the call's
reuse (entropies by computation, the joined rows with an alphabet marked, by alphabet)."""


def _finder(plugin: BasePlugin) -> Finder | None:
    """For a high-entropy plugin, what its analyze_line finds on each row, without building a PotentialSecret each.

    analyze_line keeps each distinct string its pattern reads in the line whose entropy exceeds the
    limit. Such a string is a run of the plugin's alphabet at least `_shortest_above` long (20 for
    our bare hex), so only rows holding such a run are read, each with the plugin's own pattern;
    a string's entropy is computed once per call (and shared by plugins of the same computation,
    alphabet and limit: the two hex plugins). A string of k distinct characters, all of the
    alphabet, has an entropy of at most log2(k) (the hex plugin's adjustment only lowers it), so
    one with log2(k) below the limit by more than rounding could ever move it is not counted.
    """
    if not _is_entropy_plugin(plugin) or "a" not in plugin.charset or "\n" in plugin.charset:
        return None
    regex = plugin.regex
    quoted = r'([\'"])([{}]+)(\1)'.format(re.escape(plugin.charset))
    if regex is not ours.UNQUOTED_HEX and regex.pattern != quoted:
        return None
    group = 2 if regex.groups > 1 else regex.groups
    shortest = _shortest_above(plugin.entropy_limit)
    run = "a" * max(shortest, ours.UNQUOTED_HEX_RUN if regex is ours.UNQUOTED_HEX else 1)
    alphabet = str.maketrans(dict.fromkeys(plugin.charset, "a"))
    entropy = plugin.calculate_shannon_entropy
    limit = plugin.entropy_limit
    computation = (type(plugin).calculate_shannon_entropy, plugin.charset, limit)
    ceiling = limit - _MARGIN

    def find(numbered: list[tuple[int, str]], whole: str, starts: list[int], known: dict) -> dict[int, set[str]]:
        if plugin.regex is not regex:
            raise ValueError("the plugin's pattern changed")
        marked = known.get(plugin.charset)
        if marked is None:
            marked = known[plugin.charset] = whole.translate(alphabet)
        last = len(starts) - 1
        found: dict[int, set[str]] = {}
        passes: dict[str, bool] = known.setdefault(computation, {})
        at = marked.find(run)
        while at >= 0:
            row = _row(starts, at)
            for m in regex.finditer(numbered[row][1]):
                value = m.group(group)
                if len(value) < shortest:
                    continue
                verdict = passes.get(value)
                if verdict is None:
                    verdict = passes[value] = math.log2(len(set(value))) > ceiling and entropy(value) > limit
                if verdict:
                    found.setdefault(row, set()).add(value)
            if row >= last:
                break
            at = marked.find(run, starts[row + 1])
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


def _is_known_keyword_plugin(plugin: BasePlugin) -> bool:
    kind = type(plugin)
    return (
        isinstance(plugin, KeywordDetector)
        and kind.analyze_line is KeywordDetector.analyze_line
        and kind.analyze_string is KeywordDetector.analyze_string
        and plugin.keyword_exclude is None
    )


def _keyword_values(plugin: KeywordDetector) -> Values:
    """KeywordDetector.analyze_line's values, each of its patterns that begins with the denylist tried only where
    a denylist word begins (issue #11 item 4: search tried the whole alternation at every position of a line).

    analyze_line picks the patterns of the file's type and keeps, for each, the group of its first match
    (search). A match of a pattern that begins with the denylist group begins where a denylist word does,
    so the first candidate position at which the pattern matches (match, anchored there) gives search's
    match. A line whose lower case is not read position for position as the pattern's case-insensitive
    matching reads it (İ, ı, ſ, or a change of length) goes to analyze_line itself.
    """
    from detect_secrets.plugins.keyword import DENYLIST_REGEX, QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP, REGEX_BY_FILETYPE
    from detect_secrets.util.filetype import determine_file_type

    words = _WORDS[KeywordDetector]

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
