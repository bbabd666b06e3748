"""Which plugins can find anything in a file, and on which lines: the scan's one candidate pass (issue #12 item 3).

Every plugin's patterns are run on a line only where a necessary condition of them holds. For each
plugin, `PREFILTERS` gives literals (`lower`: looked up in the text's lower case; `cased`: in the
text as written) one of which every match of the plugin's patterns holds, and optionally `rows`,
patterns of which every such match holds a match inside the same line. A file is looked at once
for every literal of every plugin (`present`: the literals longer than two characters in one search
of a pattern that stops where a literal stands around its anchor, a rare character of it, in the
lower case, those written with capitals then confirmed as written; the shortest alone); a plugin
none of whose literals stands in the file is not run, and one that is runs
only on the lines holding one of its literals and a match of a row pattern within the line (or, for
a row pattern that begins with a literal, `rows_whole`, on the lines where a match of it begins in
the whole text), else on the lines holding one of its literals. A plugin without literals runs on
the lines its row patterns pick, or on every line.

Each condition below was derived from the plugin's own patterns (detect-secrets 1.5.0 and
plugins.py) and holds only for them: `derived_from` records their sources and flags, and the engine
uses a condition only while the plugin's `denylist` is exactly that (a detect-secrets upgrade that
changes a pattern runs the plugin on every line until its condition is derived again).

The lower-case literals and row patterns read the text's lower case (`str.lower`), which is the
reading case-insensitive matching gives, character for character, unless the text holds a character
whose lower case is longer (İ) or that case-insensitive matching reads as an ASCII letter while
`str.lower` keeps it (ı, ſ): the engine gives such text to every plugin on every line.

Why each condition is necessary, plugin by plugin (R the plugin's patterns, as printed in `derived_from`):

- Artifactory (case-sensitive): every match holds `AKC` then 10 alphanumerics, or `AP`, a hex digit and
  8 alphanumerics; the row pattern is exactly that part.
- AWS access key (R1 case-sensitive, R2 case-insensitive): R1 begins with A3T, ABIA, ACCA, AKIA or ASIA as
  written; R2 begins with `aws`, read case-insensitively.
- Azure Storage key (case-sensitive): every match begins with `AccountKey=`.
- Basic auth in a URL: every match begins with `://` and holds `@`; the row pattern is R itself.
- Cloudant (case-insensitive): R1, R2 hold `cl`, optionally `oudant` or `ou`, an optional `_`/`-`, an
  optional `api`, a keyword (key, pwd, pw, password, pass, token), optional quote and bracket, spaces, an
  assignment, spaces, an optional quote and then 64 hex or 24 letters: the row pattern is that run
  (the leading look-behind, bracket and quote and the trailing quote dropped, nothing else relaxed);
  R3, R4 hold `.cloudant.com` (the row pattern holds its `cloudant.com`, so that every part of it begins with
  `cl`). Every match holds `cl`.
- Discord (case-sensitive): every match holds a dot, six of its alphabet and a dot (the row pattern).
- GitHub, detect-secrets' (case-sensitive): every match begins with ghp_, gho_, ghu_, ghs_ or ghr_.
- GitLab (case-sensitive): every match begins with one of the prefixes listed (glpat-, …, GR1348941).
- IBM Cloud IAM (case-insensitive): as Cloudant, from the keyword (key, pwd, password, pass, token) to the
  44 characters and the look-ahead after them. Every match holds key, pwd, pass or token (password holds
  pass).
- IBM COS HMAC (case-insensitive): as Cloudant, from `secret` through `key`, the assignment, to the 48
  hex and the look-ahead after them. Every match holds `secret`.
- JWT (case-sensitive): every match begins with `eyJ`.
- Keyword: every pattern of detect-secrets' keyword plugin, for every file type, holds the denylist
  group, so every match holds one of its words' spellings (`api_?key` is api_key or apikey), read
  case-insensitively.
- Mailchimp (case-sensitive): every match holds `-us`.
- npm (case-sensitive): every match holds `/:_authToken=`.
- OpenAI (case-sensitive): every match holds `T3BlbkFJ`.
- Private key, detect-secrets' (case-sensitive): every pattern holds `PRIVATE KEY` but the PuTTY one,
  which is `PuTTY-User-Key-File-2`.
- PyPI (case-sensitive): every match begins with `pypi-AgE`.
- SendGrid (case-sensitive): every match begins with `SG.`.
- Slack, detect-secrets' (case-insensitive): R1 begins with `xox`, R2 holds `hooks.slack.com`.
- SoftLayer (case-insensitive): R1 as Cloudant, from `softlayer` or `sl` to the 64 characters; R2 holds
  `softlayer`. Every match holds `sl` or `softlayer` (which does not hold `sl`).
- Square (case-sensitive): every match begins with `sq0csp-`.
- Stripe, detect-secrets' (case-sensitive): every match holds `k_live_`.
- Telegram (case-sensitive): every match holds a colon with eight digits before it and 35 of the token's
  alphabet after it (the row pattern).
- Twilio (case-sensitive): every match is `AC` or `SK` and 32 lower-case alphanumerics; the row patterns are R.
- Azure DevOps (ours, case-sensitive): the 84-character form holds `JQQJ99`; the base32 form is a run of
  exactly 52 of a-z, 2-7 with no letter or digit beside it (the engine finds those rows by translating the
  text, `_azure_devops_rows`).
- Databricks (ours, case-sensitive): every match begins with `dapi` or `dose`.
- GitHub (ours, case-sensitive): every match begins with `github_pat_` or gh[pousr]_.
- Google API key (ours, case-sensitive): every match begins with `AIza`.
- Slack token (ours, case-sensitive): every match begins with `xox` or `xapp-`.
- Slack webhook (ours, case-insensitive): every match begins with `hooks.slack.com`.
- AWS secret key (ours, case-insensitive): every match begins with `aws`.
- Stripe key (ours, case-sensitive): every match holds k_live_, k_test_ (sk_, rk_) or begins with `whsec_`.
- Private key block (ours, case-sensitive): every match begins with `-----BEGIN `.
- Connection string (ours, case-insensitive): every match holds one of the names, spaces and `=`; the row
  pattern is that part.
- Authorization header (ours, case-insensitive): R1 holds `bearer`, spaces and 16 of its alphabet; R2
  `basic`, spaces and 8 of its alphabet; R3 `authorization`, an optional quote, spaces and `:` or `=`;
  R4 one of its header names, an optional quote, spaces and `:`. The row pattern is those four parts;
  the literals are the words they begin with, R4's names spelt out (api-?key is apikey or api-key …).
- Signed URL and URL token (ours, case-insensitive): every match holds `?`, `&` or `;`, one of the
  parameter names, `=` and 16 of the value's alphabet: the row pattern is R without its group. Every
  name and its `=` holds `sig=`, `signature=` or `x-amz-security-token=` (signed URL: x-amz-signature=
  and x-goog-signature= hold `signature=`), or `token=`, `client_secret=`, `api_key=` or `apikey=`
  (URL token: access_token=, refresh_token=, id_token= and auth_token= hold `token=`).
- The entropy plugins and the unquoted hex plugin have no literal: engine.py `_finder` reads only the
  lines holding a run of their alphabet long enough to pass their limit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Pattern

from detect_secrets.plugins import keyword
from detect_secrets.plugins.artifactory import ArtifactoryDetector
from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
from detect_secrets.plugins.basic_auth import BasicAuthDetector
from detect_secrets.plugins.cloudant import CloudantDetector
from detect_secrets.plugins.discord import DiscordBotTokenDetector
from detect_secrets.plugins.github_token import GitHubTokenDetector
from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
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

from . import plugins as ours


@dataclass(frozen=True)
class Prefilter:
    """A necessary condition of one plugin's patterns (module docstring): literals, and patterns for its rows."""

    derived_from: tuple[tuple[str, int], ...]
    """The plugin's patterns (source, flags) this condition was derived from; it holds for them only."""
    lower: frozenset[str] = frozenset()
    """Literals looked up in the text's lower case."""
    cased: frozenset[str] = frozenset()
    """Literals looked up in the text as written."""
    rows: tuple[Pattern[str], ...] = ()
    """Patterns searched over the lines joined; every line a match of the plugin's patterns lies in holds a match."""
    rows_lower: bool = False
    """Whether `rows` are searched in the lower case."""
    rows_whole: bool = False
    """Whether `rows` are searched over the whole text (a pattern that begins with a literal is found fastest so)
    rather than in each line holding a literal."""


def _source(patterns: Iterable[Pattern[str]]) -> tuple[tuple[str, int], ...]:
    return tuple((p.pattern, p.flags) for p in patterns)


def _keyword_words() -> frozenset[str]:
    """The literal spellings of detect-secrets' keyword denylist ("api_?key" is "api_key" or "apikey")."""
    out: set[str] = set()
    for word in keyword.DENYLIST:
        spellings = (word.replace("_?", "_"), word.replace("_?", "")) if "_?" in word else (word,)
        if any(re.escape(s) != s or re.fullmatch(word, s) is None for s in spellings):
            raise ValueError(f"the keyword denylist word {word!r} is not a literal with optional underscores")
        out.update(spellings)
    return frozenset(out)


KEYWORD_WORDS: frozenset[str] = _keyword_words()


def keyword_patterns() -> tuple[Pattern[str], ...]:
    """Every pattern detect-secrets' keyword plugin runs, for every file type."""
    tables = [keyword.QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP, *keyword.REGEX_BY_FILETYPE.values()]
    return tuple(dict.fromkeys(p for table in tables for p in table))


def keyword_patterns_hold_the_denylist() -> bool:
    """Whether every keyword pattern holds the denylist group (what KEYWORD_WORDS relies on)."""
    return all(keyword.DENYLIST_REGEX in p.pattern for p in keyword_patterns())

_ASSIGN = r"[\"']?\]? *(?:=|:|:=|=>| +|::) *[\"']?"
"""build_assignment_regex's part from the keyword's end to the value: quote, bracket, spaces, assignment, spaces,
quote (each optional but the assignment), written with the same alternatives."""


def _prefilters() -> dict[type, Prefilter]:
    c = re.compile
    table: dict[type, Prefilter] = {
        ArtifactoryDetector: Prefilter(
            _source(ArtifactoryDetector.denylist), cased=frozenset({"AKC", "AP"}),
            rows=(c(r"AKC[a-zA-Z0-9]{10}|AP[\dABCDEF][a-zA-Z0-9]{8}"),),
        ),
        AWSKeyDetector: Prefilter(
            _source(AWSKeyDetector.denylist), lower=frozenset({"aws"}),
            cased=frozenset({"A3T", "ABIA", "ACCA", "AKIA", "ASIA"}),
        ),
        AzureStorageKeyDetector: Prefilter(_source(AzureStorageKeyDetector.denylist), cased=frozenset({"AccountKey="})),
        BasicAuthDetector: Prefilter(
            _source(BasicAuthDetector.denylist), cased=frozenset({"://"}),
            rows=tuple(c(p.pattern, p.flags | re.M) for p in BasicAuthDetector.denylist),
        ),
        CloudantDetector: Prefilter(
            _source(CloudantDetector.denylist), lower=frozenset({"cl"}),
            rows=(c(r"cl(?:(?:oudant|ou)?[_-]?(?:api)?(?:key|pwd|pw|password|pass|token)" + _ASSIGN
                    + r"(?:[0-9a-f]{64}|[a-z]{24})|oudant\.com)"),),
            rows_lower=True, rows_whole=True,
        ),
        DiscordBotTokenDetector: Prefilter(
            _source(DiscordBotTokenDetector.denylist), rows=(c(r"\.[a-zA-Z\d_-]{6}\."),),
        ),
        GitHubTokenDetector: Prefilter(
            _source(GitHubTokenDetector.denylist), cased=frozenset({"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}),
        ),
        GitLabTokenDetector: Prefilter(
            _source(GitLabTokenDetector.denylist),
            cased=frozenset({"glpat-", "gldt-", "glft-", "glsoat-", "glrt-", "GR1348941", "glcbt-", "glimt-",
                             "glptt-", "glagent-", "gloas-"}),
        ),
        IbmCloudIamDetector: Prefilter(
            _source(IbmCloudIamDetector.denylist), lower=frozenset({"key", "pwd", "pass", "token"}),
            rows=(c(r"(?:key|pwd|password|pass|token)" + _ASSIGN + r"[a-z0-9_\-]{44}(?![a-z0-9_\-])"),),
            rows_lower=True,
        ),
        IbmCosHmacDetector: Prefilter(
            _source(IbmCosHmacDetector.denylist), lower=frozenset({"secret"}),
            rows=(c(r"secret[-_]?(?:access)?[-_]?key" + _ASSIGN + r"[a-f0-9]{48}(?![a-f0-9])"),),
            rows_lower=True,
        ),
        JwtTokenDetector: Prefilter(_source(JwtTokenDetector.denylist), cased=frozenset({"eyJ"})),
        KeywordDetector: Prefilter(_source(keyword_patterns()), lower=KEYWORD_WORDS),
        MailchimpDetector: Prefilter(_source(MailchimpDetector.denylist), cased=frozenset({"-us"})),
        NpmDetector: Prefilter(_source(NpmDetector.denylist), cased=frozenset({"/:_authToken="})),
        OpenAIDetector: Prefilter(_source(OpenAIDetector.denylist), cased=frozenset({"T3BlbkFJ"})),
        PrivateKeyDetector: Prefilter(
            _source(PrivateKeyDetector.denylist), cased=frozenset({"PRIVATE KEY", "PuTTY-User-Key-File-2"}),
        ),
        PypiTokenDetector: Prefilter(_source(PypiTokenDetector.denylist), cased=frozenset({"pypi-AgE"})),
        SendGridDetector: Prefilter(_source(SendGridDetector.denylist), cased=frozenset({"SG."})),
        SlackDetector: Prefilter(_source(SlackDetector.denylist), lower=frozenset({"xox", "hooks.slack.com"})),
        SoftlayerDetector: Prefilter(
            _source(SoftlayerDetector.denylist), lower=frozenset({"sl", "softlayer"}),
            rows=(c(r"(?:softlayer|sl)[_-]?(?:api)?[_-]?(?:key|pwd|password|pass|token)" + _ASSIGN
                    + r"[a-z0-9]{64}|softlayer"),),
            rows_lower=True,
        ),
        SquareOAuthDetector: Prefilter(_source(SquareOAuthDetector.denylist), cased=frozenset({"sq0csp-"})),
        StripeDetector: Prefilter(_source(StripeDetector.denylist), cased=frozenset({"k_live_"})),
        TelegramBotTokenDetector: Prefilter(
            _source(TelegramBotTokenDetector.denylist),
            rows=(c(r":(?<=\d{8}:)[0-9A-Za-z_-]{35}"),),
        ),
        TwilioKeyDetector: Prefilter(
            _source(TwilioKeyDetector.denylist), cased=frozenset({"AC", "SK"}),
            rows=tuple(c(p.pattern, p.flags | re.M) for p in TwilioKeyDetector.denylist),
        ),
        ours.AzureDevOpsTokenDetector: Prefilter(_source(ours.AzureDevOpsTokenDetector.denylist)),
        ours.DatabricksTokenDetector: Prefilter(
            _source(ours.DatabricksTokenDetector.denylist), cased=frozenset({"dapi", "dose"}),
        ),
        ours.GitHubTokenDetector: Prefilter(
            _source(ours.GitHubTokenDetector.denylist),
            cased=frozenset({"github_pat_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_"}),
        ),
        ours.GoogleApiKeyDetector: Prefilter(_source(ours.GoogleApiKeyDetector.denylist), cased=frozenset({"AIza"})),
        ours.SlackTokenDetector: Prefilter(
            _source(ours.SlackTokenDetector.denylist), cased=frozenset({"xox", "xapp-"}),
        ),
        ours.SlackWebhookDetector: Prefilter(
            _source(ours.SlackWebhookDetector.denylist), lower=frozenset({"hooks.slack.com"}),
        ),
        ours.AwsSecretKeyDetector: Prefilter(_source(ours.AwsSecretKeyDetector.denylist), lower=frozenset({"aws"})),
        ours.StripeKeyDetector: Prefilter(
            _source(ours.StripeKeyDetector.denylist), cased=frozenset({"k_live_", "k_test_", "whsec_"}),
        ),
        ours.PrivateKeyBlockDetector: Prefilter(
            _source(ours.PrivateKeyBlockDetector.denylist), cased=frozenset({"-----BEGIN "}),
        ),
        ours.ConnectionStringDetector: Prefilter(
            _source(ours.ConnectionStringDetector.denylist),
            lower=frozenset({"password", "passwd", "pwd", "accountkey", "sharedaccesskey"}),
            rows=(c(r"(?:password|passwd|pwd|accountkey|sharedaccesskey)\s*="),),
            rows_lower=True,
        ),
        ours.AuthorizationHeaderDetector: Prefilter(
            _source(ours.AuthorizationHeaderDetector.denylist),
            lower=frozenset({"bearer", "basic", "authorization", "apikey", "api-key", "authtoken", "auth-token",
                             "accesstoken", "access-token", "subscription-key"}),
            rows=(c(r"bearer\s+[a-z0-9\-._~+/]{16}|basic\s+[a-z0-9+/]{8}|authorization[\"']?\s*[:=]"
                    r"|(?:api-?key|auth-?token|access-?token|subscription-key)[\"']?\s*:"),),
            rows_lower=True,
        ),
        ours.SignedUrlDetector: Prefilter(
            _source(ours.SignedUrlDetector.denylist), lower=frozenset({"sig=", "signature=", "x-amz-security-token="}),
            rows=(c(r"[?&;](?:sig|signature|x-amz-signature|x-goog-signature|x-amz-security-token)="
                    r"[a-z0-9%+/=._~-]{16}"),),
            rows_lower=True,
        ),
        ours.UrlTokenDetector: Prefilter(
            _source(ours.UrlTokenDetector.denylist),
            lower=frozenset({"token=", "client_secret=", "api_key=", "apikey="}),
            rows=(c(r"[?&;](?:access_token|refresh_token|id_token|client_secret|api_key|apikey|auth_token|token)="
                    r"[a-z0-9%+/=._~-]{16}"),),
            rows_lower=True,
        ),
    }
    return table


PREFILTERS: dict[type, Prefilter] = _prefilters()


@dataclass(frozen=True)
class Lookup:
    """A set of literals, looked up together (`present`): one pattern that matches where a longer literal's anchor
    stands and the literal stands around it, each anchor's literals with their anchor's place in them, and the
    shortest literals, which stand almost everywhere, each looked up alone."""

    pattern: Pattern[str] | None
    anchored: dict[str, tuple[tuple[str, int], ...]]
    """Anchor character → the literals anchored at it, each with the index of its anchor in it."""
    short: tuple[str, ...]


SHORT = 2
"""Literals this long or shorter (ac, ap, cl, sl …) are looked up alone: in the pattern they would match at almost
every line, each match a step of the search."""

FREQUENCY: dict[str, int] = {
    " ": 12650, "e": 8902, "a": 6280, "t": 4614, "s": 4175, "r": 3897, "i": 3561, "d": 3537, "n": 3488, "c": 3385,
    "o": 2988, ":": 2753, "0": 1781, "u": 1730, "p": 1715, "f": 1593, "2": 1431, "l": 1403, "1": 1375, "b": 1293,
    "h": 1157, "v": 1131, "3": 1129, "9": 1011, "8": 991, "4": 984, "5": 950, "6": 950, "7": 950, "m": 821, "g": 743,
    "/": 412, "-": 394, "w": 321, "y": 319, "_": 300, "k": 283, "q": 242, ".": 235, "x": 172, "=": 100, "z": 72,
    "j": 16,
}
"""How often each character stands in an entry's text, in lower case (per 100,000 characters: the benchmark
catalog's files, with `_` and `=` raised to what snake-case names and queries give). Only the speed of `present`
depends on it: the anchors are chosen so that the search stops at as few positions as it can."""


def _anchors(words: list[str]) -> dict[str, int]:
    """Each word's anchor (an index into it): the characters chosen cover every word (a greedy weighted cover,
    then every character the others already cover dropped), each word anchored at its rarest chosen one."""
    def weight(c: str) -> int:
        return FREQUENCY.get(c, 0)  # a character not listed is rare

    chosen: list[str] = []
    left = set(words)
    while left:
        pick = min(sorted({c for w in left for c in w}),
                   key=lambda c: weight(c) / sum(1 for w in left if c in w))
        chosen.append(pick)
        left = {w for w in left if pick not in w}
    for c in list(chosen):
        rest = [x for x in chosen if x != c]
        if all(any(x in w for x in rest) for w in words):
            chosen = rest
    return {w: min((i for i, c in enumerate(w) if c in chosen), key=lambda i: (weight(w[i]), i)) for w in words}


def _anchored_pattern(anchors: dict[str, int]) -> str:
    """A pattern matching at position p exactly where a word anchored at p's character stands with its anchor at
    p: the anchor, then each such word's part before it looked behind and its part after it matched."""
    by_anchor: dict[str, list[tuple[str, str]]] = {}
    for word, i in anchors.items():
        by_anchor.setdefault(word[i], []).append((word[: i + 1], word[i + 1:]))
    branches = []
    for anchor, parts in sorted(by_anchor.items()):
        alternatives = sorted({("(?<=" + re.escape(before) + ")" if len(before) > 1 else "") + re.escape(after)
                               for before, after in parts})
        branches.append(re.escape(anchor) + "(?:" + "|".join(alternatives) + ")")
    return "|".join(branches)


def lookup_order(literals: Iterable[str]) -> Lookup:
    """The lookup of a set of literals (`present`)."""
    words = sorted(w for w in set(literals) if len(w) > SHORT)
    short = tuple(sorted(w for w in set(literals) if len(w) <= SHORT))
    anchors = _anchors(words)
    anchored: dict[str, list[tuple[str, int]]] = {}
    for word, i in sorted(anchors.items()):
        anchored.setdefault(word[i], []).append((word, i))
    return Lookup(re.compile(_anchored_pattern(anchors)) if words else None,
                  {c: tuple(found) for c, found in anchored.items()}, short)


def present(text: str, lookup: Lookup) -> set[str]:
    """The literals of the set that stand in the text: the short ones looked up alone, the others in one search of
    the anchored pattern, which stops only where a literal stands around its anchor (issue #20; the anchors are
    rarer than the literals' first characters, so far fewer positions are tried than by a trie of the literals).

    Every place a literal stands has its anchor at a position where the pattern matches, and the search is
    resumed one past each match: at each match, every literal anchored there is held to the text.
    """
    found = {word for word in lookup.short if word in text}
    if lookup.pattern is None:
        return found
    search = lookup.pattern.search
    anchored = lookup.anchored
    startswith = text.startswith
    m = search(text)
    while m is not None:
        at = m.start()
        for word, i in anchored[text[at]]:
            if at >= i and startswith(word, at - i):
                found.add(word)
        m = search(text, at + 1)
    return found
