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
from dataclasses import dataclass
from typing import Callable, Iterable, Pattern

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

        self.screens: list[Screen | None] = [_screen(plugin) for plugin in self.plugins]

    def scan_lines(self, filename: str, lines: Iterable[tuple[int, str]]) -> list[Hit]:
        """Every hit in the given (line number, text) pairs; no plugin verifies anything over the network.

        A plugin whose patterns find nothing in the whole text (lines joined, ^ and $ at each line)
        can find nothing in any one line, and is not run line by line.
        """
        settings = get_settings()
        if _VERIFY_FILTER in settings.filters:
            settings.disable_filters(_VERIFY_FILTER)
        numbered = [(number, text.rstrip()) for number, text in lines]
        whole = "\n".join(text for _, text in numbered)
        lowered = whole.lower()
        hits: list[Hit] = []
        for plugin, screen in zip(self.plugins, self.screens):
            if screen is not None and not screen(whole, lowered):
                continue
            for number, text in numbered:
                if not text:
                    continue
                try:
                    found_set = plugin.analyze_line(filename=filename, line=text, line_number=number)
                except Exception:  # a detector's own failure (RecursionError in a JWT's JSON …) fails closed
                    hits.append(Hit(number, FAILED, ""))
                    continue
                for found in found_set:
                    value = found.secret_value or ""
                    if value and not _filtered(plugin, value, text):
                        hits.append(Hit(number, _code(plugin, value), value))
        return hits


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


def _any_pattern(patterns: list[Pattern]) -> Screen:
    return lambda text, lowered: any(p.search(text) for p in patterns)


def _words_and_run(words: tuple[str, ...], run: str) -> Screen:
    pattern = re.compile(run)
    return lambda text, lowered: any(w in lowered for w in words) and pattern.search(text) is not None


_KEYWORD_STEMS = ("key", "pass", "pwd", "secret", "contrase")
"""Every word of detect-secrets' keyword denylist holds one of these (api_?key … contraseña)."""

_SCREENS: dict[type, Screen] = {
    KeywordDetector: lambda text, lowered: any(w in lowered for w in _KEYWORD_STEMS),
    CloudantDetector: _words_and_run(("cl",), r"(?i)[0-9a-f]{64}|[a-z]{24}"),
    IbmCloudIamDetector: _words_and_run(("key", "pwd", "pass", "token"), r"[a-zA-Z0-9_\-]{44}"),
    IbmCosHmacDetector: _words_and_run(("secret",), r"(?i)[a-f0-9]{48}"),
    SoftlayerDetector: _words_and_run(("sl", "softlayer"), r"(?i)[a-z0-9]{64}"),
}
"""Cheaper necessary conditions for the slowest patterns: each holds wherever the plugin can find anything."""


_WORDS: dict[type, tuple[str, ...]] = {
    ours.AuthorizationHeaderDetector: ("bearer", "basic", "authorization", "api", "token", "subscription-key"),
    ours.ConnectionStringDetector: ("password", "passwd", "pwd", "accountkey", "sharedaccesskey"),
    ours.SignedUrlDetector: ("sig", "signature", "x-amz-security-token"),
    ours.UrlTokenDetector: ("token", "secret", "api"),
    ours.StripeKeyDetector: ("sk_", "rk_", "whsec_"),
    ours.SlackTokenDetector: ("xox", "xapp-"),
    ours.GitHubTokenDetector: ("github_pat_", "gh"),
}
"""Words (lower case) one of which every match of the plugin's patterns holds."""


def _screen(plugin: BasePlugin) -> Screen | None:
    """A test the whole text must pass for the plugin to find anything in a line; None for the entropy plugins."""
    if type(plugin) in _SCREENS:
        return _SCREENS[type(plugin)]
    if not isinstance(plugin, RegexBasedDetector):
        return None
    patterns = _any_pattern([re.compile(p.pattern, p.flags | re.M) for p in plugin.denylist])
    words = _WORDS.get(type(plugin))
    if words is None:
        return patterns
    return lambda text, lowered: any(w in lowered for w in words) and patterns(text, lowered)


def _filtered(plugin: BasePlugin, value: str, line: str) -> bool:
    """detect-secrets' default heuristic filters, by name (its allow-list comment excluded)."""
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
