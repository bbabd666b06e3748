"""Seeing what a release holds (issue #18; RFC 0019 §2 "Where it lives", §7, Implementation item 2):
`exchange show` and the static index. Everything here reads through the consumer's checked release
(`release.checked_release`: the consumer's own check, `release-check`'s rules, then the blobs of the
tag's commit, each entry.json held to the manifest row's entryDigest); nothing is a second reader of a
catalog, and nothing an entry holds is run. A release that fails its check is shown only as its refusals.
"""
