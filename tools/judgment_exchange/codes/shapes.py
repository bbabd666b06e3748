"""What each scan code is called in a report and how a contributor fixes it (RFC 0019 §§4, 6).

A report names the shape and never the value. Every hint for a credential in a recording says the
same thing: a recording cannot be edited (its digest is in a signed receipt), so the fix is to
re-record from data that holds none.
"""

from __future__ import annotations

from dataclasses import dataclass

_RERECORD = "in a fixture, re-record from records that hold none (never edit a recording)"
_PLACE = "name the credential (a profile, a connection, a header name), never its value; remove it; " + _RERECORD
_COMMIT = ("a digest is written sha256:<hex>, and a commit as a link to it "
           "(https://github.com/OWNER/REPO/commit/<hex>), "
           "as a reader locator gives it (OWNER/NAME/PATH@<hex>) or as its first 12 characters unquoted "
           "(git rev-parse --short=12 COMMIT); docs/scanning.md")
"""The forms of a digest and a commit the hex detectors pass (scan/plugins.py `UNQUOTED_HEX`: a run after a colon,
an @ or a /commit/, /blob/ or /tree/ path, and a run shorter than 20 standing alone; a quoted run of hex is
detect-secrets' to judge at any length, so a short commit is written unquoted; issue #26 item 5)."""


@dataclass(frozen=True)
class Shape:
    """A recognised shape: its refusal `code`, its `name` in a report and a one-line `hint`."""

    code: str
    name: str
    hint: str


_TABLE: tuple[tuple[str, str, str], ...] = (
    ("secret-aws-access-key", "AWS access key", "revoke the key; " + _PLACE),
    ("secret-aws-secret-key", "AWS secret access key", "revoke the key; " + _PLACE),
    ("secret-azure-devops-pat", "Azure DevOps personal access token", "revoke the token; " + _PLACE),
    ("secret-azure-storage-key", "Azure Storage account key", "rotate the key; " + _PLACE),
    ("secret-databricks-token", "Databricks token", "revoke the token; " + _PLACE),
    ("secret-github-token", "GitHub token", "revoke the token; " + _PLACE),
    ("secret-gitlab-token", "GitLab token", "revoke the token; " + _PLACE),
    ("secret-google-api-key", "Google API key", "restrict or delete the key; " + _PLACE),
    ("secret-slack-token", "Slack token", "revoke the token; " + _PLACE),
    ("secret-slack-webhook", "Slack webhook URL", "regenerate the webhook; " + _PLACE),
    ("secret-stripe-key", "Stripe secret key", "roll the key; " + _PLACE),
    ("secret-jwt", "JSON Web Token", "treat the token as exposed; " + _PLACE),
    ("secret-private-key", "private key block", "treat the key as exposed and replace it; remove it; " + _RERECORD),
    ("secret-password-in-url", "password in a URL", "change the password; write the URL without user information"),
    (
        "secret-connection-string",
        "password or key in a connection string",
        "change the password; name the connection, never its string",
    ),
    (
        "secret-authorization-header",
        "credential in an Authorization or API-key header",
        "revoke the credential; a dialect names a header, never its value",
    ),
    (
        "secret-signed-url",
        "signed URL signature (SAS or presigned query parameter)",
        "revoke the signature; remove the query string; " + _RERECORD,
    ),
    ("secret-url-token", "token in a URL query parameter", "revoke the token; remove the query parameter"),
    ("secret-artifactory", "Artifactory credential", "revoke the credential; " + _PLACE),
    ("secret-cloudant", "Cloudant credential", "revoke the credential; " + _PLACE),
    ("secret-discord-token", "Discord bot token", "revoke the token; " + _PLACE),
    ("secret-ibm-cloud-iam-key", "IBM Cloud IAM key", "revoke the key; " + _PLACE),
    ("secret-ibm-cos-hmac", "IBM COS HMAC credential", "revoke the credential; " + _PLACE),
    ("secret-mailchimp-key", "Mailchimp API key", "revoke the key; " + _PLACE),
    ("secret-npm-token", "npm token", "revoke the token; " + _PLACE),
    ("secret-openai-key", "OpenAI API key", "revoke the key; " + _PLACE),
    ("secret-pypi-token", "PyPI token", "revoke the token; " + _PLACE),
    ("secret-sendgrid-key", "SendGrid API key", "revoke the key; " + _PLACE),
    ("secret-softlayer", "SoftLayer credential", "revoke the credential; " + _PLACE),
    ("secret-square-oauth", "Square OAuth secret", "revoke the secret; " + _PLACE),
    ("secret-telegram-token", "Telegram bot token", "revoke the token; " + _PLACE),
    ("secret-twilio-key", "Twilio API key", "revoke the key; " + _PLACE),
    (
        "secret-keyword",
        "value of a secret-named member (password, secret, api key …)",
        "remove the value; " + _RERECORD,
    ),
    (
        "secret-high-entropy-hex",
        "high-entropy hexadecimal string",
        "if it is a key or token, remove it (in a fixture, re-record from records that hold none: never edit a "
        "recording); " + _COMMIT,
    ),
    ("secret-high-entropy-base64", "high-entropy base64 string", "if it is a key or token, remove it; " + _RERECORD),
    (
        "local-path",
        "local path",
        "write no path of the author's machine (use one relative to the entry); in a fixture, re-record, never edit",
    ),
    ("code-executable", "file with a run bit", "clear the executable bit (git update-index --chmod=-x)"),
    ("code-script", "script (#! line)", "an entry holds no program; remove the file"),
    ("code-binary", "binary file (NUL byte or invalid UTF-8)", "an entry holds text only; remove the file"),
    (
        "code-file",
        "file whose name says code, a package, an archive or an image",
        "an entry holds no program, script, executable, image or package; remove the file",
    ),
    (
        "readme-link-outside",
        "relative link leaving the entry",
        "link only to files inside the entry, or use a full URL",
    ),
    ("readme-link-missing", "relative link to no file of the entry", "fix the link or add the file it names"),
    ("readme-link-local", "link to a local path", "link to a file of the entry or to a public URL"),
    (
        "scan-file-over-bound",
        "file over the scan's bound for its name (docs/scanning.md)",
        "keep each file within its bound (RFC 0019 §3, dialect §12); remove a file the format does not name",
    ),
    ("scan-file-unreadable", "file the scan could not read", "check the file's mode and the tree"),
    (
        "scan-detector-failed",
        "line a detector failed on (so not established clean)",
        "remove the line's malformed token (a deeply nested or broken encoded value)",
    ),
    (
        "scan-findings-truncated",
        "more findings than a report shows for one file",
        "fix the findings shown and run the scan again",
    ),
    (
        "scan-incomplete",
        "scan that could not finish (not established clean)",
        "remove what the detail names (files past the entry's scan budget, a value holding many candidate key "
        "structures); the scan refuses what it could not finish, never passes it",
    ),
)

SHAPES: dict[str, Shape] = {code: Shape(code, name, hint) for code, name, hint in _TABLE}

GENERIC: frozenset[str] = frozenset({"secret-keyword", "secret-high-entropy-hex", "secret-high-entropy-base64"})
"""Codes that name no particular credential: dropped on a line where a named shape covers the same value."""
