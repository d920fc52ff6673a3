"""Loaded by Python children of a salted test run (see ``tests/varied_deals.py``): the parent's salt for their
deals and ``random.Random(seed)``."""

from tests.varied_deals import salt_on_import

salt_on_import()
