"""The gate on PyPI (issue #33 item 4; docs/publishing.md): the distributions PyPI gets and publish.yml."""
