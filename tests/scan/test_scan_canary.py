"""The scanner still fires after a dependency upgrade: detect-secrets' own plugins find their known samples.

If detect-secrets changes (a plugin renamed, a pattern narrowed, a plugin added), one of these
fails before an entry's scan silently weakens (RFC 0019 §4).
"""

from __future__ import annotations

from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
from detect_secrets.core.scan import scan_line
from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.settings import transient_settings

from judgment_exchange.scan.engine import CODE_BY_TYPE, STANDARD_PLUGINS, Engine, engine

AWS_DOCUMENTED_EXAMPLE = "AKIA" + "IOSFODNN7" + "EXAMPLE"
"""The access key id AWS's own documentation uses as its example (built from pieces)."""

EXCLUDED = {"IPPublicDetector"}
"""Standard plugins deliberately not run (docs/scanning.md): an IP address is not a credential."""


def test_detect_secrets_finds_its_known_sample_through_its_own_api() -> None:
    with transient_settings({"plugins_used": [{"name": "AWSKeyDetector"}]}):
        found = list(scan_line(f'aws_access_key_id = "{AWS_DOCUMENTED_EXAMPLE}"'))
    assert [(s.type, s.secret_value) for s in found] == [(AWSKeyDetector.secret_type, AWS_DOCUMENTED_EXAMPLE)]


def test_our_engine_finds_the_same_sample() -> None:
    hits = engine().scan_lines("config.json", [(1, f'{{"key": "{AWS_DOCUMENTED_EXAMPLE}"}}')])
    assert [(h.line, h.code) for h in hits] == [(1, "secret-aws-access-key")]


def test_every_standard_plugin_is_run_or_excluded_by_name() -> None:
    installed = {cls.__name__ for cls in get_mapping_from_secret_type_to_class().values()}
    run = {cls.__name__ for cls in STANDARD_PLUGINS}
    assert installed == run | EXCLUDED
    assert not run & EXCLUDED


def test_every_plugin_has_a_refusal_code() -> None:
    for plugin in Engine().plugins:
        assert plugin.secret_type in CODE_BY_TYPE


def test_an_unmapped_plugin_is_refused_at_construction() -> None:
    class Unnamed(AWSKeyDetector):
        secret_type = "Something New"

    try:
        Engine([Unnamed])
    except ValueError as exc:
        assert "Unnamed" in str(exc)
    else:
        raise AssertionError("an engine with an unmapped plugin was built")


def test_no_plugin_verifies_over_the_network(monkeypatch) -> None:
    import requests
    from detect_secrets.settings import get_settings

    def refuse(*args, **kwargs):
        raise AssertionError("a plugin tried the network")

    monkeypatch.setattr(requests.Session, "request", refuse)
    get_settings().filters["detect_secrets.filters.common.is_ignored_due_to_verification_policies"] = {"min_level": 2}
    try:
        hits = engine().scan_lines("x.md", [(1, "xoxb-" + "1234567890-1234567890123-" + "a1b2c3d4e5f6a1b2c3d4e5f6")])
    finally:
        get_settings().filters.pop("detect_secrets.filters.common.is_ignored_due_to_verification_policies", None)
    assert {h.code for h in hits} == {"secret-slack-token"}
