"""Synthetic credential samples, built from pieces at test time so that no file of the repository holds one.

Every sample is random from a fixed seed, shaped as its issuer writes it, and valid for nothing.
`SAMPLES` maps each shape's refusal code to one sample; `NEAR_MISSES` holds text that must pass.
"""

from __future__ import annotations

import base64
import json
import random
import string

_rng = random.Random(20261129)
UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
DIGITS = string.digits
ALNUM = UPPER + LOWER + DIGITS
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"


def pick(alphabet: str, n: int) -> str:
    """n characters from the alphabet, at least one digit and one letter when the alphabet has both."""
    while True:
        value = "".join(_rng.choice(alphabet) for _ in range(n))
        if not (set(alphabet) & set(DIGITS)) or not (set(alphabet) & set(string.ascii_letters)):
            return value
        if any(c.isdigit() for c in value) and any(c.isalpha() for c in value):
            return value


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _jwt() -> str:
    header = _b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    claims = _b64url(json.dumps({"sub": "svc-" + pick(DIGITS, 6), "iat": 1790000000}).encode())
    return f"{header}.{claims}.{_b64url(bytes(_rng.randrange(256) for _ in range(32)))}"


def _pem(label: str) -> str:
    body = base64.b64encode(bytes(_rng.randrange(256) for _ in range(96))).decode()
    return f"-----{'BEGIN'} {label}-----\n{body[:64]}\n{body[64:]}\n-----END {label}-----"


_PW = pick(ALNUM, 10) + "!"

SAMPLES: dict[str, str] = {
    "secret-aws-access-key": "AKIA" + pick(UPPER + "234567", 16),
    "secret-aws-secret-key": "aws_secret_access_key=" + pick(ALNUM + "/+", 40),
    "secret-azure-devops-pat": pick(LOWER + "234567", 52),
    "secret-azure-storage-key": "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey="
    + pick(B64, 86)
    + "==;EndpointSuffix=core.windows.net",
    "secret-databricks-token": "dapi" + pick(HEX, 32),
    "secret-github-token": "github_pat_" + pick(ALNUM, 22) + "_" + pick(ALNUM, 59),
    "secret-gitlab-token": "glpat-" + pick(ALNUM, 20),
    "secret-google-api-key": "AIza" + pick(ALNUM + "-_", 35),
    "secret-slack-token": "xoxb-" + pick(DIGITS, 12) + "-" + pick(DIGITS, 13) + "-" + pick(ALNUM, 24),
    "secret-slack-webhook": "https://hooks.slack.com/services/T" + pick(UPPER + DIGITS, 8) + "/B"
    + pick(UPPER + DIGITS, 10) + "/" + pick(ALNUM, 24),
    "secret-stripe-key": "sk_" + "live_" + pick(ALNUM, 24),
    "secret-jwt": _jwt(),
    "secret-private-key": _pem("RSA PRIVATE KEY"),
    "secret-password-in-url": "postgresql://svc_reader:" + _PW[:-1] + "@db.example.com:5432/records",
    "secret-connection-string": "Server=tcp:acme.database.windows.net,1433;Database=records;User ID=reader;Password="
    + _PW + ";",
    "secret-authorization-header": "Authorization: Bearer " + pick(ALNUM + "-._", 40),
    "secret-signed-url": "https://acme.blob.core.windows.net/exports/rows.csv?sv=2022-11-02&se=2026-12-31T00%3A00%3A00Z"
    "&sr=b&sp=r&sig=" + pick(ALNUM, 43) + "%3D",
    "secret-url-token": "https://api.example.com/v1/items?page=2&access_token=" + pick(ALNUM, 32),
    "secret-artifactory": "AKC" + "p8" + pick(ALNUM, 70),
    "secret-cloudant": 'cloudant_password = "' + pick(LOWER, 24) + '"',
    "secret-discord-token": "M" + pick(ALNUM, 23) + "." + pick(ALNUM, 6) + "." + pick(ALNUM, 27),
    "secret-ibm-cloud-iam-key": 'ibm_cloud_iam_api_key = "' + pick(ALNUM, 44) + '"',
    "secret-ibm-cos-hmac": 'ibm_cos_hmac_secret_access_key = "' + pick(HEX, 48) + '"',
    "secret-mailchimp-key": pick(LOWER[:6] + DIGITS, 32) + "-us" + pick(DIGITS, 2),
    "secret-npm-token": "//registry.npmjs.org/:_authToken=" + "np" + "m_" + pick(ALNUM, 36),
    "secret-openai-key": "sk-" + pick(ALNUM, 20) + "T3Blbk" + "FJ" + pick(ALNUM, 20),
    "secret-pypi-token": "pypi-AgEIcHlwaS5vcmc" + pick(ALNUM, 80),
    "secret-sendgrid-key": "SG." + pick(ALNUM, 22) + "." + pick(ALNUM, 43),
    "secret-softlayer": 'softlayer_api_key = "' + pick(LOWER + DIGITS, 64) + '"',
    "secret-square-oauth": "sq0csp-" + pick(ALNUM, 43),
    "secret-telegram-token": pick(DIGITS, 9) + ":" + pick(ALNUM, 35),
    "secret-twilio-key": "SK" + pick(LOWER + DIGITS, 32),
    "secret-keyword": 'db_password = "' + _PW + '"',
    "secret-high-entropy-hex": pick(HEX, 64),
    "secret-high-entropy-base64": "'" + pick(B64, 44) + "'",
}
"""One realistic sample per credential code, as its issuer writes it (with the context some shapes need)."""

MORE_SAMPLES: dict[str, list[str]] = {
    "secret-azure-devops-pat": [pick(ALNUM, 52) + "JQQJ99" + "A" + "B" + pick(ALNUM, 16) + "AZDO" + pick(ALNUM, 4)],
    "secret-github-token": ["ghp_" + pick(ALNUM, 36)],
    "secret-databricks-token": ["dose" + pick(HEX, 32)],
    "secret-slack-token": ["xapp-1-A" + pick(UPPER + DIGITS, 10) + "-" + pick(DIGITS, 13) + "-" + pick(HEX, 64)],
    "secret-slack-webhook": ["https://hooks.slack.com/workflows/T" + pick(UPPER + DIGITS, 8)
                             + "/A" + pick(UPPER + DIGITS, 10)
                             + "/" + pick(DIGITS, 18) + "/" + pick(ALNUM, 24)],
    "secret-stripe-key": ["rk_" + "test_" + pick(ALNUM, 24), "whsec_" + pick(ALNUM, 32)],
    "secret-private-key": [_pem("ENCRYPTED PRIVATE KEY"), _pem("OPENSSH PRIVATE KEY"), _pem("PGP PRIVATE KEY BLOCK")],
    "secret-aws-access-key": ["ASIA" + pick(UPPER + "234567", 16)],
    "secret-aws-secret-key": ['aws_secret_access_key = "' + pick(ALNUM + "/+", 40) + '"'],
    "secret-authorization-header": [
        "Authorization: Basic " + base64.b64encode(b"reader:" + _PW.encode()).decode(),
        "x-api-key: " + pick(ALNUM, 32),
        "Authorization: token " + pick(HEX, 40),
    ],
    "secret-signed-url": ["https://bucket.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature="
                          + pick(HEX, 64)],
    "secret-connection-string": ["Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey="
                                 + pick(B64, 43) + "="],
    "secret-url-token": ["https://login.example.com/cb?client_secret=" + pick(ALNUM, 40)],
}
"""Further forms of some shapes (other prefixes, labels and header styles)."""

NEAR_MISSES: dict[str, str] = {
    "digest": "sha256:" + pick(HEX, 64),
    "uuid": "3f2b9c1e-8a4d-4e6f-9b2a-1c3d5e7f9a0b",
    "version": "runner v0.10.0, runtime 1.2.3.4, jpack 0.24.0",
    "reader locator": "Judgment-Pack/judgment-pack-runner/cmd/verify-run@" + pick(HEX, 40),
    "aws-too-short": "AKIA" + pick(UPPER, 10),
    "databricks-too-short": "dapi" + pick(HEX, 20),
    "github-pat-prose": "a GitHub fine-grained token (github_pat_…) is never written here",
    "google-too-short": "AIza" + pick(ALNUM, 12),
    "slack-prose": "tokens such as xoxb-… and https://api.slack.com/messaging/webhooks are documented elsewhere",
    "stripe-publishable": "pk_" + "live_" + "publishablekeyexample000",
    "public-key-block": "-----BEGIN PUBLIC KEY-----",
    "url-without-password": "postgresql://vendor-records and https://reader@example.com/x",
    "password-placeholder": "Password=${DB_PASSWORD};User ID=reader",
    "bearer-prose": "send a Bearer token in the Authorization header",
    "authorization-name": "the header Authorization: named by the profile, never valued",
    "short-signature": "https://example.com/list?sig=abc&sort=asc",
    "signature-word": "the receipt's signature verifies under the profile's key",
    "ado-words": ("thequickbrownfoxjumpsoverthelazydog" + "andthenrunsawayfast")[:52],
    "plain-keyword": 'password_policy = "required"',
    "short-hex": "commit " + pick(HEX, 7),
    "url-token-short": "https://example.com/cb?token=abc&state=xyz",
    "jwt-prose": "a JWT begins eyJ and has three parts",
    "aws-secret-variable": "aws_secret_access_key=${AWS_SECRET_ACCESS_KEY}",
    "azure-storage-placeholder": "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=<key>",
    "npm-variable": "//registry.npmjs.org/:_authToken=${NPM_TOKEN}",
    "telegram-short": "12345678:short",
    "twilio-short": "SK" + "1234",
    "sendgrid-prose": "SendGrid keys begin SG. and are never written here",
    "openai-prose": "an OpenAI key begins sk- and is never written here",
    "pypi-prose": "a PyPI token begins pypi- and is never written here",
    "gitlab-prose": "a GitLab token begins glpat- and is never written here",
    "mailchimp-prose": "the us12 data centre",
    "square-prose": "a Square secret begins sq0csp- and is never written here",
    "discord-prose": "a Discord bot token is three dotted parts",
    "cloudant-placeholder": 'cloudant_password = "<password>"',
    "ibm-placeholder": 'ibm_cloud_iam_api_key = "${IBM_CLOUD_KEY}"',
    "cos-placeholder": 'cos_hmac_secret_access_key = "{{secret}}"',
    "softlayer-placeholder": 'softlayer_api_key = "$SL_KEY"',
    "artifactory-prose": "Artifactory tokens begin AKC and are never written here",
    "keyword-no-value": "the password member is absent",
}

NEAR_MISS_FOR: dict[str, tuple[str, ...]] = {
    "secret-aws-access-key": ("aws-too-short",),
    "secret-aws-secret-key": ("aws-secret-variable",),
    "secret-azure-devops-pat": ("ado-words",),
    "secret-azure-storage-key": ("azure-storage-placeholder",),
    "secret-databricks-token": ("databricks-too-short",),
    "secret-github-token": ("github-pat-prose",),
    "secret-gitlab-token": ("gitlab-prose",),
    "secret-google-api-key": ("google-too-short",),
    "secret-slack-token": ("slack-prose",),
    "secret-slack-webhook": ("slack-prose",),
    "secret-stripe-key": ("stripe-publishable",),
    "secret-jwt": ("jwt-prose",),
    "secret-private-key": ("public-key-block",),
    "secret-password-in-url": ("url-without-password",),
    "secret-connection-string": ("password-placeholder",),
    "secret-authorization-header": ("bearer-prose", "authorization-name"),
    "secret-signed-url": ("short-signature", "signature-word"),
    "secret-url-token": ("url-token-short",),
    "secret-artifactory": ("artifactory-prose",),
    "secret-cloudant": ("cloudant-placeholder",),
    "secret-discord-token": ("discord-prose",),
    "secret-ibm-cloud-iam-key": ("ibm-placeholder",),
    "secret-ibm-cos-hmac": ("cos-placeholder",),
    "secret-mailchimp-key": ("mailchimp-prose",),
    "secret-npm-token": ("npm-variable",),
    "secret-openai-key": ("openai-prose",),
    "secret-pypi-token": ("pypi-prose",),
    "secret-sendgrid-key": ("sendgrid-prose",),
    "secret-softlayer": ("softlayer-placeholder",),
    "secret-square-oauth": ("square-prose",),
    "secret-telegram-token": ("telegram-short",),
    "secret-twilio-key": ("twilio-short",),
    "secret-keyword": ("plain-keyword", "keyword-no-value"),
    "secret-high-entropy-hex": ("digest", "reader locator", "short-hex", "uuid"),
    "secret-high-entropy-base64": ("version", "uuid"),
}
"""For each credential code, the near-misses that resemble it most (all of NEAR_MISSES must pass anyway)."""
"""Text that resembles a shape and must pass: digests, UUIDs, versions, locators, prose and placeholders."""


def long_base64(n: int = 600) -> str:
    """A long base64 payload (random bytes), as a recorded result may hold one."""
    return base64.b64encode(bytes(_rng.randrange(256) for _ in range(n))).decode()


def hex_of(n: int) -> str:
    return pick(HEX, n)
