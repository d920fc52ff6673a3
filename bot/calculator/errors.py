"""Problems with a score request, kept as data (field, message id, parameters) and rendered in the asker's language.

The field is the request's JSON path (``points``, ``declarations.B[0]``, ``rules.contra_tie``); the text form uses
the same names, so a chat answer and a JSON answer point at the same thing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from bot.i18n import translator


@dataclass(frozen=True, slots=True)
class Msg:
    """A translatable message: an English msgid with ``{name}`` placeholders, and the values to put in them.

    A parameter may itself be a ``Msg`` (a contract's name, a team's default name), translated in the same language,
    or a tuple of them, rendered as a comma-separated list.
    """

    msgid: str
    params: Mapping[str, object] = field(default_factory=dict)

    def render(self, lang: str) -> str:
        t = translator(lang)
        values = {k: _render_value(v, lang) for k, v in self.params.items()}
        return t.gettext(self.msgid, **values) if values else t.gettext(self.msgid)


def _render_value(value: object, lang: str) -> object:
    if isinstance(value, Msg):
        return value.render(lang)
    if isinstance(value, tuple):
        return ", ".join(str(_render_value(v, lang)) for v in value)
    return value


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a request: where (``field``) and what would be right (``message``)."""

    field: str
    message: Msg

    def render(self, lang: str) -> str:
        return f"{self.field}: {self.message.render(lang)}"


class CalculatorError(ValueError):
    """A request that cannot be scored; ``problems`` says every field that is wrong and why."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(p.render("en") for p in self.problems))

    @property
    def fields(self) -> list[str]:
        return [p.field for p in self.problems]

    def render(self, lang: str) -> list[str]:
        return [p.render(lang) for p in self.problems]


def problem(field_name: str, msgid: str, **params: object) -> Problem:
    return Problem(field_name, Msg(msgid, params))
