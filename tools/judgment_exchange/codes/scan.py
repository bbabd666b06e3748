"""Refusal codes of the entry scan (RFC 0019 §4, §6, §7), each with the section that defines it.

Every credential, token and key shape the scan recognises has its own code (`secret-…`); local
paths, code and binaries, README links and the scan's own limits have theirs. `SHAPES` (shapes.py)
gives each code the name and the one-line hint a report shows; a new scan code gets a row there and
a line here (its section), and its record (meaning, fix) is built from both.
"""

from ..coderecord import Code
from .shapes import SHAPES

_SECRETS = "RFC 0019 §4 (the scan), §6 (credentials, tokens and keys, of any kind and in any file)"
_PATHS = "RFC 0019 §4 (the scan refuses a local path), §6"
_CODE = "RFC 0019 §6 (code of any kind: no program, script, executable, image or package)"
_LINKS = "RFC 0019 Conformance (a relative link that does not resolve), §3 (README.md)"
_LIMITS = "RFC 0019 §4 (every file to a scan), §3 (bounds)"

_SECTIONS: dict[str, str] = {
    # credentials, tokens and keys: our own detectors and detect-secrets' standard plugins
    "secret-aws-access-key": _SECRETS,
    "secret-aws-secret-key": _SECRETS,
    "secret-azure-devops-pat": _SECRETS,
    "secret-azure-storage-key": _SECRETS,
    "secret-databricks-token": _SECRETS,
    "secret-github-token": _SECRETS,
    "secret-gitlab-token": _SECRETS,
    "secret-google-api-key": _SECRETS,
    "secret-slack-token": _SECRETS,
    "secret-slack-webhook": _SECRETS,
    "secret-stripe-key": _SECRETS,
    "secret-jwt": _SECRETS,
    "secret-private-key": _SECRETS,
    "secret-password-in-url": _SECRETS,
    "secret-connection-string": _SECRETS,
    "secret-authorization-header": _SECRETS,
    "secret-signed-url": _SECRETS,
    "secret-url-token": _SECRETS,
    "secret-artifactory": _SECRETS,
    "secret-cloudant": _SECRETS,
    "secret-discord-token": _SECRETS,
    "secret-ibm-cloud-iam-key": _SECRETS,
    "secret-ibm-cos-hmac": _SECRETS,
    "secret-mailchimp-key": _SECRETS,
    "secret-npm-token": _SECRETS,
    "secret-openai-key": _SECRETS,
    "secret-pypi-token": _SECRETS,
    "secret-sendgrid-key": _SECRETS,
    "secret-softlayer": _SECRETS,
    "secret-square-oauth": _SECRETS,
    "secret-telegram-token": _SECRETS,
    "secret-twilio-key": _SECRETS,
    "secret-keyword": _SECRETS,
    "secret-high-entropy-hex": _SECRETS,
    "secret-high-entropy-base64": _SECRETS,
    # local paths
    "local-path": _PATHS,
    # code and binaries
    "code-executable": _CODE,
    "code-script": _CODE,
    "code-binary": _CODE,
    "code-file": _CODE,
    # README links
    "readme-link-outside": _LINKS,
    "readme-link-missing": _LINKS,
    "readme-link-local": _LINKS,
    # the scan's own limits
    "scan-file-over-bound": _LIMITS,
    "scan-file-unreadable": _LIMITS,
    "scan-findings-truncated": _LIMITS,
    "scan-detector-failed": _LIMITS,
    "scan-incomplete": _LIMITS,
}

_MEANINGS: dict[str, str] = {
    _SECRETS: "A file of the entry holds a credential, token or key: {name}.",
    _PATHS: "A file of the entry holds a {name} of the author's machine.",
    _CODE: "The entry holds code: a {name}.",
    _LINKS: "README.md has a {name}.",
    _LIMITS: "A limit of the scan itself: {name}.",
}


def _record(code: str, section: str) -> Code:
    """A scan code's record: its meaning from its shape's name, its fix from the shape's hint (shapes.py)."""
    shape = SHAPES[code]
    return Code(section, _MEANINGS[section].format(name=shape.name), shape.hint[0].upper() + shape.hint[1:] + ".")


RECORDS: dict[str, Code] = {code: _record(code, section) for code, section in _SECTIONS.items()}

CODES: dict[str, str] = {code: record.section for code, record in RECORDS.items()}
"""Each code's section (the table's first field), for callers that need only that."""
