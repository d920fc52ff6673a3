"""Table options: the ``rules`` object of formats.md §2, with exactly its keys and defaults."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError


class Rules(BaseModel):
    """Every table option. Unknown keys and values of the wrong kind are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    target_score: int = Field(default=151, ge=1)
    contra_blocks_bidding: bool = False
    recontra_ends_auction: bool = False
    declaration_comparison: Literal["separate", "carre_kills_quint", "single_contest", "carre_beats_sequence"] = (
        "separate"
    )
    hundred_carre_order: Literal["points", "rank"] = "points"
    long_sequence: Literal["top_card", "length"] = "top_card"
    eight_card_run: Literal[100, 120] = 100
    nt_aces_carre: bool = False
    nt_valat_doubled: bool = False
    valat_multiplied: bool = True
    contra_tie: Literal["all_hang", "split"] = "all_hang"
    inside_keeps_belote: bool = False
    valat_team_keeps_declarations: bool = True
    capot_blocks_finish: bool = True
    winner_must_score_last_deal: bool = False
    no_finish_while_hanging: bool = False
    must_undertrump: bool = False
    auto_declarations: bool = False

    def to_json(self) -> dict[str, Any]:
        """Only the options that differ from the defaults, as a record writes them."""
        return self.model_dump(exclude_defaults=True)


DEFAULT_RULES = Rules()


class RulesError(ValueError):
    """Table options that are not valid; ``problems`` lists (key, what is wrong)."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"rules.{key}: {why}" for key, why in problems))


def _explain(err: dict[str, Any]) -> str:
    kind = err.get("type", "")
    if kind == "extra_forbidden":
        return "unknown table option; known options: " + ", ".join(Rules.model_fields)
    if kind == "literal_error":
        return str(err.get("msg", "invalid value")).replace("Input should be", "must be")
    if kind.startswith("bool"):
        return "must be true or false"
    if kind.startswith("int") or kind == "greater_than_equal":
        return "must be a whole number ≥ 1"
    return str(err.get("msg", "invalid value"))


def parse_rules(data: object) -> Rules:
    """Validate a ``rules`` object; raise RulesError naming each bad key and what would be valid."""
    if data is None:
        return DEFAULT_RULES
    if not isinstance(data, dict):
        raise RulesError([("", "must be an object of table options")])
    try:
        return Rules.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            loc = ".".join(str(p) for p in err.get("loc", ())) or "?"
            problems.append((loc, _explain(dict(err))))
        raise RulesError(problems) from None
