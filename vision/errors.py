"""The vision package's error: every bad upload raises :class:`ImageError` (a ``ValueError``)."""


class ImageError(ValueError):
    """Bytes that cannot be read as a photo: not an image, truncated, too large, a decompression bomb."""
