"""Code and binaries: an entry holds no program, script, executable, image or package (RFC 0019 §6).

Judged from what a file is, not what it is called alone: a run bit, a #! line, a NUL byte or bytes
that are not UTF-8, and a name that says code, a package, an archive or an image.
"""

from __future__ import annotations

CODE_SUFFIXES: frozenset[str] = frozenset(
    """
    py pyc pyo pyd pyw pyz ipynb sh bash zsh ksh csh fish ps1 psm1 psd1 bat cmd com vbs vbe wsf scr
    js mjs cjs jsx ts tsx mts cts wasm rb pl pm php lua go rs c cc cpp cxx h hpp java class jar war
    ear kt kts scala groovy gradle cs fs vb swift m mm r jl dart ex exs erl hs clj sql html htm xhtml
    exe dll so dylib o a lib bin elf msi msp deb rpm apk ipa appimage dmg pkg iso img
    whl egg gem nupkg crate zip tar gz tgz bz2 tbz xz txz zst 7z rar lz lzma cab
    png jpg jpeg gif bmp ico svg webp tif tiff heic avif psd pdf
    """.split()
)
"""Suffixes (case-insensitive) naming code, an executable, a package or archive, or an image."""

CODE_NAMES: frozenset[str] = frozenset(
    {"makefile", "dockerfile", "containerfile", "jenkinsfile", "rakefile", "gemfile"}
)


def name_says_code(name: str) -> bool:
    """Whether a file's name says code, a package, an archive or an image."""
    lower = name.lower()
    if lower in CODE_NAMES:
        return True
    stem, dot, suffix = lower.rpartition(".")
    return bool(dot and stem and suffix in CODE_SUFFIXES)


def is_binary(data: bytes) -> bool:
    """A NUL byte, or bytes that are not UTF-8."""
    if b"\x00" in data:
        return True
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def is_script(data: bytes) -> bool:
    """A #! line at the start (after an optional UTF-8 byte order mark)."""
    return data.removeprefix(b"\xef\xbb\xbf").startswith(b"#!")
