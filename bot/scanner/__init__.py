"""The card scanner: name the cards in a photo of won cards spread on a table (docs/scanner.md)."""

from .recognise import LETTERS, MAX_BYTES, MAX_PIXELS, Found, Scan, ScanError, decode, scan_bytes, scan_image

__all__ = ["LETTERS", "MAX_BYTES", "MAX_PIXELS", "Found", "Scan", "ScanError", "decode", "scan_bytes", "scan_image"]
