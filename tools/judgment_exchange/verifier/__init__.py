"""The preparation verifier (dialect §§5–11). STUB: being written."""
