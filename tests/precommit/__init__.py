"""The gate as pre-commit hooks (issue #33 item 3; docs/precommit.md)."""
