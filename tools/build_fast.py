"""Compile the hard bot's search and the rule-based players with mypyc (``make fast``), beside their sources.

setuptools finds packages by itself when a build names none, and refuses this repository's layout (bot, bench and
locales at the top); the compiled modules need no package list, so this build names an empty one.
"""

import sys

from mypyc.build import mypycify
from setuptools import setup

# The modules share one library of mypyc's; named inside the package, it lands beside them in bot/ai, where the
# installed ``belote-bot`` command finds it (at the top of the repository only ``python -m bot`` run there would).
setup(
    packages=[],
    ext_modules=mypycify(sys.argv[1:], group_name="bot.ai.fast"),
    script_args=["build_ext", "--inplace"],
)
