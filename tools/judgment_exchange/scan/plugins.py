"""Our detect-secrets plugins: the credential shapes detect-secrets 1.5.0 lacks (RFC 0019 §§4, 6).

Each is a `RegexBasedDetector` whose patterns have exactly one capturing group, the value; `accept`
drops values that are placeholders or too plain to be a credential. The standard plugins still run
beside these (engine.py); where both recognise a value, the report shows it once.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Generator, Iterable, Pattern

from detect_secrets.plugins.base import BasePlugin, RegexBasedDetector
from detect_secrets.plugins.high_entropy_strings import HexHighEntropyString

_B = r"(?<![A-Za-z0-9])"
_E = r"(?![A-Za-z0-9])"


def _mixed(value: str) -> bool:
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


class _ShapeDetector(RegexBasedDetector):
    """A regex detector whose values pass `accept` before they are findings."""

    secret_type = "abstract"
    denylist: Iterable[Pattern[str]] = ()

    def accept(self, value: str) -> bool:
        return True

    def analyze_string(self, string: str) -> Generator[str, None, None]:
        for value in super().analyze_string(string):
            if self.accept(value):
                yield value


class AzureDevOpsTokenDetector(_ShapeDetector):
    """Azure DevOps personal access tokens: the 84-character form (…JQQJ99…AZDO…) and the 52-character base32 form."""

    secret_type = "Azure DevOps Personal Access Token"
    denylist = (
        re.compile(_B + r"([A-Za-z0-9]{52}JQQJ99[A-Za-z0-9][A-C][A-Za-z0-9]{16}AZDO[A-Za-z0-9]{4})" + _E),
        re.compile(_B + r"([a-z2-7]{52})" + _E),
    )

    def accept(self, value: str) -> bool:
        return "AZDO" in value or (any(c in "234567" for c in value) and len(set(value)) >= 12)


class DatabricksTokenDetector(_ShapeDetector):
    """Databricks personal access tokens (dapi…) and OAuth secrets (dose…)."""

    secret_type = "Databricks Token"
    denylist = (re.compile(_B + r"((?:dapi|dose)[a-f0-9]{32}(?:-[0-9]+)?)" + _E),)


class GitHubTokenDetector(_ShapeDetector):
    """GitHub fine-grained tokens (github_pat_…) and classic tokens (ghp_, gho_, ghu_, ghs_, ghr_)."""

    secret_type = "GitHub Fine-Grained or Classic Token"
    denylist = (
        re.compile(_B + r"(github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59})" + _E),
        re.compile(_B + r"(gh[pousr]_[A-Za-z0-9]{36,251})" + _E),
    )


class GoogleApiKeyDetector(_ShapeDetector):
    """Google API keys (AIza… of 39 characters)."""

    secret_type = "Google API Key"
    denylist = (re.compile(_B + r"(AIza[0-9A-Za-z_\-]{35})(?![0-9A-Za-z_\-])"),)


class SlackTokenDetector(_ShapeDetector):
    """Slack bot, user, app, refresh and configuration tokens."""

    secret_type = "Slack Token (extended)"
    denylist = (
        re.compile(_B + r"(xox[abposre]-[0-9]+-[A-Za-z0-9-]{8,})"),
        re.compile(_B + r"(xoxe\.xox[bp]-[0-9]+-[A-Za-z0-9-]{8,})"),
        re.compile(_B + r"(xapp-[0-9]+-[A-Za-z0-9]+-[0-9]+-[A-Za-z0-9]+)"),
    )


class SlackWebhookDetector(_ShapeDetector):
    """Slack incoming webhooks and workflow triggers."""

    secret_type = "Slack Webhook"
    denylist = (
        re.compile(r"(hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_]+/[A-Za-z0-9_/]+)", re.I),
    )


class AwsSecretKeyDetector(_ShapeDetector):
    """AWS secret access keys written after their name, quoted or not (detect-secrets needs quotes)."""

    secret_type = "AWS Secret Access Key"
    denylist = (
        re.compile(r"aws_?secret_?(?:access_?)?key[\"']?\s*[:=]\s*[\"']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])", re.I),
    )

    def accept(self, value: str) -> bool:
        return _mixed(value)


class StripeKeyDetector(_ShapeDetector):
    """Stripe secret and restricted keys, live and test, and webhook signing secrets."""

    secret_type = "Stripe Key (extended)"
    denylist = (
        re.compile(_B + r"((?:sk|rk)_(?:live|test)_[0-9A-Za-z]{24,})" + _E),
        re.compile(_B + r"(whsec_[0-9A-Za-z]{24,})" + _E),
    )


class PrivateKeyBlockDetector(_ShapeDetector):
    """PEM private key blocks of every label (ENCRYPTED, RSA, EC, OPENSSH, PGP … BLOCK)."""

    secret_type = "Private Key Block"
    denylist = (re.compile(r"(-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----)"),)


class ConnectionStringDetector(_ShapeDetector):
    """Passwords and keys in connection strings and URL queries (Password=…;, AccountKey=…, ?password=…)."""

    secret_type = "Connection String Secret"
    denylist = (
        re.compile(
            r"(?:^|[;?&\s\"'{(,])(?:password|passwd|pwd|accountkey|sharedaccesskey)\s*=\s*"
            r"([^;&\s\"'<>{}$%]{4,})",
            re.I,
        ),
    )

    def accept(self, value: str) -> bool:
        return value.lower() not in {"null", "none", "true", "false", "empty", "secret", "password"}


class AuthorizationHeaderDetector(_ShapeDetector):
    """Authorization header values (Bearer, Basic, token) and API-key header values."""

    secret_type = "Authorization Header Credential"
    denylist = (
        re.compile(r"\bbearer\s+([A-Za-z0-9\-._~+/]{16,}=*)", re.I),
        re.compile(r"\bbasic\s+([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])", re.I),
        re.compile(
            r"\bauthorization[\"']?\s*[:=]\s*[\"']?(?:(?:token|apikey|api-key|key|sso-key)\s+)?"
            r"([A-Za-z0-9\-._~+/]{16,}=*)",
            re.I,
        ),
        re.compile(
            r"\b(?:x-)?(?:api-?key|auth-?token|access-?token|subscription-key)[\"']?\s*:\s*[\"']?"
            r"([A-Za-z0-9\-._~+/]{16,}=*)",
            re.I,
        ),
    )

    def accept(self, value: str) -> bool:
        if _mixed(value):
            return True
        return _decodes_to_credential_pair(value)


def _decodes_to_credential_pair(value: str) -> bool:
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return False
    user, sep, password = decoded.partition(":")
    return bool(sep and user and password and decoded.isprintable())


class SignedUrlDetector(_ShapeDetector):
    """Signature query parameters: Azure SAS sig=, AWS and Google presigned signatures and session tokens."""

    secret_type = "Signed URL Signature"
    denylist = (
        re.compile(
            r"[?&;](?:sig|signature|x-amz-signature|x-goog-signature|x-amz-security-token)=([A-Za-z0-9%+/=._~-]{16,})",
            re.I,
        ),
    )


class UrlTokenDetector(_ShapeDetector):
    """Tokens in URL query parameters (access_token=, client_secret=, api_key= …)."""

    secret_type = "URL Query Token"
    denylist = (
        re.compile(
            r"[?&;](?:access_token|refresh_token|id_token|client_secret|api_key|apikey|auth_token|token)="
            r"([A-Za-z0-9%+/=._~-]{16,})",
            re.I,
        ),
    )

    def accept(self, value: str) -> bool:
        return _mixed(value)


UNQUOTED_HEX = re.compile(
    r"(?<![0-9A-Za-z:@_+=.-])(?<!/commit/)(?<!/commits/)(?<!/blob/)(?<!/tree/)"
    r"([0-9a-fA-F]{20,})(?![0-9A-Za-z_+=-])"
)
"""A bare hex run of 20 or more, not after a colon, an @ or a commit's URL path."""

UNQUOTED_HEX_RUN = 20
"""The fewest hex characters standing together that UNQUOTED_HEX matches."""


class UnquotedHexDetector(HexHighEntropyString):
    """Hex strings of 20 or more characters standing alone, quoted or not (a bare hex in a README).

    A digest (sha256:<hex>, after a colon) and a commit in a reader locator (…@<hex>, …/commit/<hex>)
    are not bare; every other run is held to the hex plugin's entropy limit.
    """

    secret_type = "Hex High Entropy String (unquoted)"

    def __init__(self, limit: float = 3.0) -> None:
        super().__init__(limit=limit)
        self.regex = UNQUOTED_HEX


OUR_PLUGINS: tuple[type[BasePlugin], ...] = (
    AzureDevOpsTokenDetector,
    DatabricksTokenDetector,
    GitHubTokenDetector,
    GoogleApiKeyDetector,
    SlackTokenDetector,
    SlackWebhookDetector,
    AwsSecretKeyDetector,
    StripeKeyDetector,
    PrivateKeyBlockDetector,
    ConnectionStringDetector,
    AuthorizationHeaderDetector,
    SignedUrlDetector,
    UrlTokenDetector,
    UnquotedHexDetector,
)
