"""Compile the hard bot's search and the rule-based players with mypyc (``make fast``), beside their sources.

setuptools finds packages by itself when a build names none, and refuses this repository's layout (bot, bench and
locales at the top); the compiled modules need no package list, so this build names an empty one.
"""

import sys

from mypyc.build import mypycify
from setuptools import setup

setup(packages=[], ext_modules=mypycify(sys.argv[1:]), script_args=["build_ext", "--inplace"])
