"""Shared test set-up: this folder is on ``sys.path`` (for ``toygames``), and hypothesis profiles.

``QIPAI_HYPOTHESIS=thorough`` runs the property tests with many more examples."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("default", deadline=None)
settings.register_profile("thorough", deadline=None, max_examples=2000)
settings.load_profile(os.environ.get("QIPAI_HYPOTHESIS", "default"))
