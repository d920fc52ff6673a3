"""The core's neutral text and buttons as Telegram HTML and inline keyboards; deep-link payloads."""

from __future__ import annotations

import pytest

from bot.adapters.telegram.adapter import base_url_of
from bot.adapters.telegram.render import (
    ALERT_LIMIT,
    MAX_TEXT,
    alert_text,
    deep_link_payload,
    post_of,
    table_of_payload,
    to_html,
)
from bot.core.messages import TELEGRAM, Button, ChatRef, OutMessage, UserRef


def test_bold_becomes_b_and_everything_else_is_escaped() -> None:
    assert to_html("**Deal 3** · <A&B>") == "<b>Deal 3</b> · &lt;A&amp;B&gt;"


def test_the_player_to_act_is_mentioned_where_the_text_names_them_last() -> None:
    alice = UserRef(TELEGRAM, "42", "Alice <3")
    html = to_html("Alice <3 took the trick\nTurn: Alice <3", alice)
    assert html == 'Alice &lt;3 took the trick\nTurn: <a href="tg://user?id=42">Alice &lt;3</a>'


def test_a_mention_from_another_platform_is_left_as_text() -> None:
    assert to_html("Turn: Bob", UserRef("discord", "7", "Bob")) == "Turn: Bob"


def test_text_too_long_for_one_message_is_cut_at_a_line() -> None:
    text = "\n".join(f"**line {i}** " + "x" * 80 for i in range(100))
    html = to_html(text)
    assert len(html) <= MAX_TEXT and html.endswith("\n…") and "<b>" not in html


@pytest.mark.parametrize("table_id", ["3q3hpa", "a", "z" * 12, "with space/and:colon", "стол"])
def test_deep_link_payloads_name_their_table_and_fit_telegrams_alphabet(table_id: str) -> None:
    payload = deep_link_payload(table_id)
    assert len(payload) <= 64 and all(c.isascii() and (c.isalnum() or c in "_-") for c in payload)
    assert table_of_payload(payload) == table_id


@pytest.mark.parametrize("payload", ["", "x123", "b!!!", "t"])
def test_a_foreign_start_payload_names_no_table(payload: str) -> None:
    assert table_of_payload(payload) is None


def test_a_hand_goes_to_the_private_chat_and_a_table_to_its_topic() -> None:
    alice = UserRef(TELEGRAM, "42", "Alice")
    hand = OutMessage("t:h0:42", alice, "hand", ((Button("J♥", "v1:t:1:p:JH"),),), kind="hand", table_id="t")
    post = post_of(hand)
    assert post is not None and post.chat_id == 42 and post.who == "Alice" and post.table_id == "t"
    assert post.markup is not None and post.markup.inline_keyboard[0][0].callback_data == "v1:t:1:p:JH"
    table = OutMessage("t:d1", ChatRef(TELEGRAM, "-1001", "77"), "deal", notify=True)
    post = post_of(table)
    assert post is not None and (post.chat_id, post.thread_id, post.fresh, post.markup) == (-1001, 77, True, None)
    assert post_of(OutMessage("k", ChatRef("discord", "5"), "x")) is None


@pytest.mark.parametrize(
    ("setting", "url"),
    [
        ("https://api.telegram.org/bot", "https://api.telegram.org/bot"),
        ("http://localhost:8081", "http://localhost:8081/bot"),
        ("http://localhost:8081/", "http://localhost:8081/bot"),
        ("http://h/custom/{token}/x", "http://h/custom/{token}/x"),
    ],
)
def test_the_base_url_setting_takes_a_server_root_or_ptbs_own_form(setting: str, url: str) -> None:
    assert base_url_of(setting) == url


def test_a_press_answer_keeps_whole_lines_and_cuts_only_a_first_line_too_long_alone() -> None:
    refusal = "this sheet keeps a Bela match; a line of Bulgarian belote does not belong on it"
    hint = "/sheet new bulgarian starts a sheet of Bulgarian belote; this one stays in /sheet history."
    assert alert_text(f"{refusal}\n{hint}") == f"{refusal}\n{hint}"
    # A hint that would not fit whole is left out, not cut mid-word, and the answer says something is left out.
    long_hint = hint + " " + "x" * (ALERT_LIMIT - 1 - len(refusal) - len(hint))
    assert len(f"{refusal}\n{long_hint}") == ALERT_LIMIT + 1
    assert alert_text(f"{refusal}\n{long_hint}") == refusal + " …"
    review = "\n".join(f"Trick {n}: you played K♥, the trick went to your team." for n in range(1, 9))
    shown = alert_text(review)
    assert len(shown) <= ALERT_LIMIT and shown.endswith(" …")
    assert shown[: -len(" …")].split("\n") == review.split("\n")[:3]
    lone = "word " * 60
    assert alert_text(lone) == lone[: ALERT_LIMIT - 1] + "…" and len(alert_text(lone)) == ALERT_LIMIT
    assert alert_text(f"{lone}\nmore") == alert_text(lone)
