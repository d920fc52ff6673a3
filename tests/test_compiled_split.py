"""The line between the modules `make fast` compiles with mypyc and the rest.

A class of an interpreted module may not subclass a class of a compiled one: Python raises "interpreted classes
cannot inherit from compiled" when the class statement runs, on hosts that compiled, and nowhere else. The test suite
runs the plain sources, so this reads the sources instead: the Makefile's list of compiled modules, and every base
class named in the other modules of the package.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def compiled_modules(makefile: str) -> set[str]:
    """The dotted names of the modules in the Makefile's ``FAST`` list (continued over backslashed lines)."""
    found = re.search(r"^FAST\s*:=\s*((?:.*\\\n)*.*)$", makefile, re.MULTILINE)
    assert found, "the Makefile has no FAST list"
    paths = found.group(1).replace("\\\n", " ").split()
    return {p.removesuffix(".py").replace("/", ".") for p in paths}


def _module_of(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _imported(tree: ast.Module, module: str) -> dict[str, tuple[str, str | None]]:
    """Each name the module binds by import: (module, name in it), or (module, None) for a module itself."""
    package = module.rsplit(".", 1)[0]
    names: dict[str, tuple[str, str | None]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join([*base, source] if source else base)
            for alias in node.names:
                names[alias.asname or alias.name] = (source, alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                bound = alias.name if alias.asname else alias.name.split(".")[0]  # `import a.b` binds `a`
                names[alias.asname or bound] = (bound, None)
    return names


def _classes(tree: ast.Module) -> set[str]:
    return {node.name for node in tree.body if isinstance(node, ast.ClassDef)}


def subclasses_of_compiled(sources: dict[str, str], compiled: set[str]) -> list[str]:
    """"module.Class (base module.Base)" for each class of an interpreted module whose base is a compiled class."""
    trees = {module: ast.parse(text) for module, text in sources.items()}
    compiled_classes = {module: _classes(trees[module]) for module in compiled if module in trees}
    found = []
    for module, tree in trees.items():
        if module in compiled:
            continue
        imported = _imported(tree, module)
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            for base in node.bases:
                target: tuple[str, str | None] | None = None
                if isinstance(base, ast.Name) and base.id in imported:
                    target = imported[base.id]
                elif isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name):
                    source = imported.get(base.value.id)
                    if source is not None:
                        target = (source[0] if source[1] is None else f"{source[0]}.{source[1]}", base.attr)
                if target is not None and target[1] in compiled_classes.get(target[0], set()):
                    found.append(f"{module}.{node.name} (base {target[0]}.{target[1]})")
    return found


def _package_sources() -> dict[str, str]:
    return {_module_of(path): path.read_text(encoding="utf-8") for path in sorted((ROOT / "bot").rglob("*.py"))}


def test_no_interpreted_class_subclasses_a_compiled_one() -> None:
    compiled = compiled_modules((ROOT / "Makefile").read_text(encoding="utf-8"))
    sources = _package_sources()
    missing = compiled - set(sources)
    assert compiled and not missing, f"the FAST list names modules that do not exist: {missing}"
    assert subclasses_of_compiled(sources, compiled) == []


def test_the_check_finds_such_a_class_however_its_base_is_named() -> None:
    """Written by hand: the shapes a subclass of a compiled class can take in an interpreted module."""
    sources = {
        "bot.ai.solver": "class Solver:\n    pass\n\ndef helper() -> None: ...\n",
        "bot.ai.review": "from .solver import Solver\n\nclass _Timed(Solver):\n    pass\n",
        "bot.core.other": "from bot.ai import solver\n\nclass A(solver.Solver):\n    pass\n",
        "bot.core.third": "import bot.ai.solver as s\n\nclass B(s.Solver):\n    pass\n",
        "bot.core.fine": "from bot.ai.solver import helper\n\nclass C(Exception):\n    pass\n",
        "bot.ai.medium": "from .solver import Solver\n\nclass D(Solver):\n    pass\n",  # compiled too: allowed
    }
    found = subclasses_of_compiled(sources, {"bot.ai.solver", "bot.ai.medium"})
    assert found == [
        "bot.ai.review._Timed (base bot.ai.solver.Solver)",
        "bot.core.other.A (base bot.ai.solver.Solver)",
        "bot.core.third.B (base bot.ai.solver.Solver)",
    ]


def test_the_fast_list_is_read_across_its_continued_lines() -> None:
    makefile = "X := 1\nFAST := bot/ai/solver.py bot/ai/knowledge.py \\\n\tbot/ai/games.py\n\nfast:\n\tbuild $(FAST)\n"
    assert compiled_modules(makefile) == {"bot.ai.solver", "bot.ai.knowledge", "bot.ai.games"}
