"""Checks shared by the report tests: SVG well-formedness and no external references."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

SVG = re.compile(r"<svg\b.*?</svg>", re.S)
#: src= / href= / url() pointing anywhere but the page itself (#id) or inline data.
EXTERNAL = re.compile(r"""(?:src|href)\s*=\s*["']?(?!#|data:)[^"'\s>]+|url\((?!#)""", re.I)


def svgs(page: str) -> list[ET.Element]:
    """Every inline SVG, parsed as XML (raises if one is malformed)."""
    return [ET.fromstring(match) for match in SVG.findall(page)]


def external_references(page: str) -> list[str]:
    return EXTERNAL.findall(page)
