"""Camera tile recognition: a photo of Okey or Rummikub tiles → tiles in our notation (``R7``, ``F``, ``J``).

>>> from vision import Recognizer                                  # doctest: +SKIP
>>> Recognizer.default().recognize("rack.jpg").notation             # doctest: +SKIP
'R7 R8 R9 F'

ONNX models run on the CPU with onnxruntime; see ``models/README.md`` for classes, training data
and measured figures.  This package imports no Flask.
"""

from vision.errors import ImageError
from vision.recognizer import DetectedTile, Recognition, Recognizer, recognize_file

__all__ = ["DetectedTile", "ImageError", "Recognition", "Recognizer", "recognize_file"]
