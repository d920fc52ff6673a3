"""Loaded by Python children of a salted test run (see ``tests/varied_deals.py``): the parent's salt for their
``random.Random(seed)``."""

from tests.varied_deals import salt_randoms

salt_randoms()
