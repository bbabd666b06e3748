"""What each scan code is called in a report and how a contributor fixes it (RFC 0019 §§4, 6).

A report names the shape and never the value. Every hint for a credential in a recording says the
same thing: a recording cannot be edited (its digest is in a signed receipt), so the fix is to
re-record from data that holds none.
"""

from __future__ import annotations

from dataclasses import dataclass

SECRET_AWS_ACCESS_KEY = "secret-aws-access-key"
SECRET_AWS_SECRET_KEY = "secret-aws-secret-key"
SECRET_AZURE_DEVOPS_PAT = "secret-azure-devops-pat"
SECRET_AZURE_STORAGE_KEY = "secret-azure-storage-key"
SECRET_DATABRICKS_TOKEN = "secret-databricks-token"
SECRET_GITHUB_TOKEN = "secret-github-token"
SECRET_GITLAB_TOKEN = "secret-gitlab-token"
SECRET_GOOGLE_API_KEY = "secret-google-api-key"
SECRET_SLACK_TOKEN = "secret-slack-token"
SECRET_SLACK_WEBHOOK = "secret-slack-webhook"
SECRET_STRIPE_KEY = "secret-stripe-key"
SECRET_JWT = "secret-jwt"
SECRET_PRIVATE_KEY = "secret-private-key"
SECRET_PASSWORD_IN_URL = "secret-password-in-url"
SECRET_CONNECTION_STRING = "secret-connection-string"
SECRET_AUTHORIZATION_HEADER = "secret-authorization-header"
SECRET_SIGNED_URL = "secret-signed-url"
SECRET_URL_TOKEN = "secret-url-token"
SECRET_ARTIFACTORY = "secret-artifactory"
SECRET_CLOUDANT = "secret-cloudant"
SECRET_DISCORD_TOKEN = "secret-discord-token"
SECRET_IBM_CLOUD_IAM_KEY = "secret-ibm-cloud-iam-key"
SECRET_IBM_COS_HMAC = "secret-ibm-cos-hmac"
SECRET_MAILCHIMP_KEY = "secret-mailchimp-key"
SECRET_NPM_TOKEN = "secret-npm-token"
SECRET_OPENAI_KEY = "secret-openai-key"
SECRET_PYPI_TOKEN = "secret-pypi-token"
SECRET_SENDGRID_KEY = "secret-sendgrid-key"
SECRET_SOFTLAYER = "secret-softlayer"
SECRET_SQUARE_OAUTH = "secret-square-oauth"
SECRET_TELEGRAM_TOKEN = "secret-telegram-token"
SECRET_TWILIO_KEY = "secret-twilio-key"
SECRET_KEYWORD = "secret-keyword"
SECRET_HIGH_ENTROPY_HEX = "secret-high-entropy-hex"
SECRET_HIGH_ENTROPY_BASE64 = "secret-high-entropy-base64"
LOCAL_PATH = "local-path"
CODE_EXECUTABLE = "code-executable"
CODE_SCRIPT = "code-script"
CODE_BINARY = "code-binary"
CODE_FILE = "code-file"
README_LINK_OUTSIDE = "readme-link-outside"
README_LINK_MISSING = "readme-link-missing"
README_LINK_LOCAL = "readme-link-local"
SCAN_FILE_OVER_BOUND = "scan-file-over-bound"
SCAN_FILE_UNREADABLE = "scan-file-unreadable"
SCAN_DETECTOR_FAILED = "scan-detector-failed"
SCAN_FINDINGS_TRUNCATED = "scan-findings-truncated"
SCAN_INCOMPLETE = "scan-incomplete"

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
    (SECRET_AWS_ACCESS_KEY, "AWS access key", "revoke the key; " + _PLACE),
    (SECRET_AWS_SECRET_KEY, "AWS secret access key", "revoke the key; " + _PLACE),
    (SECRET_AZURE_DEVOPS_PAT, "Azure DevOps personal access token", "revoke the token; " + _PLACE),
    (SECRET_AZURE_STORAGE_KEY, "Azure Storage account key", "rotate the key; " + _PLACE),
    (SECRET_DATABRICKS_TOKEN, "Databricks token", "revoke the token; " + _PLACE),
    (SECRET_GITHUB_TOKEN, "GitHub token", "revoke the token; " + _PLACE),
    (SECRET_GITLAB_TOKEN, "GitLab token", "revoke the token; " + _PLACE),
    (SECRET_GOOGLE_API_KEY, "Google API key", "restrict or delete the key; " + _PLACE),
    (SECRET_SLACK_TOKEN, "Slack token", "revoke the token; " + _PLACE),
    (SECRET_SLACK_WEBHOOK, "Slack webhook URL", "regenerate the webhook; " + _PLACE),
    (SECRET_STRIPE_KEY, "Stripe secret key", "roll the key; " + _PLACE),
    (SECRET_JWT, "JSON Web Token", "treat the token as exposed; " + _PLACE),
    (SECRET_PRIVATE_KEY, "private key block", "treat the key as exposed and replace it; remove it; " + _RERECORD),
    (SECRET_PASSWORD_IN_URL, "password in a URL", "change the password; write the URL without user information"),
    (
        SECRET_CONNECTION_STRING,
        "password or key in a connection string",
        "change the password; name the connection, never its string",
    ),
    (
        SECRET_AUTHORIZATION_HEADER,
        "credential in an Authorization or API-key header",
        "revoke the credential; a dialect names a header, never its value",
    ),
    (
        SECRET_SIGNED_URL,
        "signed URL signature (SAS or presigned query parameter)",
        "revoke the signature; remove the query string; " + _RERECORD,
    ),
    (SECRET_URL_TOKEN, "token in a URL query parameter", "revoke the token; remove the query parameter"),
    (SECRET_ARTIFACTORY, "Artifactory credential", "revoke the credential; " + _PLACE),
    (SECRET_CLOUDANT, "Cloudant credential", "revoke the credential; " + _PLACE),
    (SECRET_DISCORD_TOKEN, "Discord bot token", "revoke the token; " + _PLACE),
    (SECRET_IBM_CLOUD_IAM_KEY, "IBM Cloud IAM key", "revoke the key; " + _PLACE),
    (SECRET_IBM_COS_HMAC, "IBM COS HMAC credential", "revoke the credential; " + _PLACE),
    (SECRET_MAILCHIMP_KEY, "Mailchimp API key", "revoke the key; " + _PLACE),
    (SECRET_NPM_TOKEN, "npm token", "revoke the token; " + _PLACE),
    (SECRET_OPENAI_KEY, "OpenAI API key", "revoke the key; " + _PLACE),
    (SECRET_PYPI_TOKEN, "PyPI token", "revoke the token; " + _PLACE),
    (SECRET_SENDGRID_KEY, "SendGrid API key", "revoke the key; " + _PLACE),
    (SECRET_SOFTLAYER, "SoftLayer credential", "revoke the credential; " + _PLACE),
    (SECRET_SQUARE_OAUTH, "Square OAuth secret", "revoke the secret; " + _PLACE),
    (SECRET_TELEGRAM_TOKEN, "Telegram bot token", "revoke the token; " + _PLACE),
    (SECRET_TWILIO_KEY, "Twilio API key", "revoke the key; " + _PLACE),
    (
        SECRET_KEYWORD,
        "value of a secret-named member (password, secret, api key …)",
        "remove the value; " + _RERECORD,
    ),
    (
        SECRET_HIGH_ENTROPY_HEX,
        "high-entropy hexadecimal string",
        "if it is a key or token, remove it (in a fixture, re-record from records that hold none: never edit a "
        "recording); " + _COMMIT,
    ),
    (SECRET_HIGH_ENTROPY_BASE64, "high-entropy base64 string", "if it is a key or token, remove it; " + _RERECORD),
    (
        LOCAL_PATH,
        "local path",
        "write no path of the author's machine (use one relative to the entry); in a fixture, re-record, never edit",
    ),
    (CODE_EXECUTABLE, "file with a run bit", "clear the executable bit (git update-index --chmod=-x)"),
    (CODE_SCRIPT, "script (#! line)", "an entry holds no program; remove the file"),
    (CODE_BINARY, "binary file (NUL byte or invalid UTF-8)", "an entry holds text only; remove the file"),
    (
        CODE_FILE,
        "file whose name says code, a package, an archive or an image",
        "an entry holds no program, script, executable, image or package; remove the file",
    ),
    (
        README_LINK_OUTSIDE,
        "relative link leaving the entry",
        "link only to files inside the entry, or use a full URL",
    ),
    (README_LINK_MISSING, "relative link to no file of the entry", "fix the link or add the file it names"),
    (README_LINK_LOCAL, "link to a local path", "link to a file of the entry or to a public URL"),
    (
        SCAN_FILE_OVER_BOUND,
        "file over the scan's bound for its name (docs/scanning.md)",
        "keep each file within its bound (RFC 0019 §3, dialect §12); remove a file the format does not name",
    ),
    (SCAN_FILE_UNREADABLE, "file the scan could not read", "check the file's mode and the tree"),
    (
        SCAN_DETECTOR_FAILED,
        "line a detector failed on (so not established clean)",
        "remove the line's malformed token (a deeply nested or broken encoded value)",
    ),
    (
        SCAN_FINDINGS_TRUNCATED,
        "more findings than a report shows for one file",
        "fix the findings shown and run the scan again",
    ),
    (
        SCAN_INCOMPLETE,
        "scan that could not finish (not established clean)",
        "remove what the detail names (files past the entry's scan budget, a value holding many candidate key "
        "structures); the scan refuses what it could not finish, never passes it",
    ),
)

SHAPES: dict[str, Shape] = {code: Shape(code, name, hint) for code, name, hint in _TABLE}

GENERIC: frozenset[str] = frozenset({SECRET_KEYWORD, SECRET_HIGH_ENTROPY_HEX, SECRET_HIGH_ENTROPY_BASE64})
"""Codes that name no particular credential: dropped on a line where a named shape covers the same value."""
