"""Photos of won cards on Discord (docs/scanner.md): ``/score`` with an image attachment (and ``letters: В Д П``
for a pack so lettered, which the channel keeps for its next photos). The flow is ``bot.core.scanflow``'s; this
module downloads the attachment (its announced size and type checked first), answers in the channel and edits that
answer on each press. Buttons are dynamic items whose ``custom_id`` is the flow's payload, so they work after a
restart.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.core.messages import DISCORD
from bot.core.scanflow import ScanFlow, ScanView, is_photo_file
from bot.i18n import translator

from .calculator import AddToSheet, compact
from .text import CONTENT_LIMIT, LABEL_LIMIT, clip, markup

if TYPE_CHECKING:
    from .adapter import DiscordAdapter

log = logging.getLogger(__name__)


class ScanButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"sc1:[0-9a-f]{8}:[0-9a-z]{1,8}:[0-9a-z]{1,4}"
):
    def __init__(self, payload: str, label: str = "·", *, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(label=clip(label, LABEL_LIMIT) or "·", custom_id=payload,
                              style=discord.ButtonStyle.secondary),
            row=row,
        )
        self.payload = payload

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ScanButton:
        return cls(match.group(0))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        scans: PhotoScans = interaction.client.adapter.scans
        await scans.on_press(interaction, self.payload)


def _view(view: ScanView, in_channel: bool = False) -> discord.ui.View | None:
    """The message's buttons; a scored deal's "Add to the sheet" writes on the channel's sheet, as a typed deal's
    does (none in a direct message, nor for a request too long for a button)."""
    shown = discord.ui.View(timeout=None)
    for row, buttons in enumerate(view.rows):
        for button in buttons:
            shown.add_item(ScanButton(button.payload, button.label, row=row))
    custom_id = compact(view.sheet) if view.sheet is not None and in_channel else None
    if custom_id is not None:
        shown.add_item(AddToSheet(custom_id, clip(view.sheet_label, LABEL_LIMIT)))
    return shown if shown.children else None


class PhotoScans:
    def __init__(self, adapter: DiscordAdapter) -> None:
        self.adapter = adapter
        self.flow = ScanFlow(adapter.host.storage, DISCORD)

    async def _languages(self, interaction: discord.Interaction[Any]) -> tuple[str, str]:
        """(the person's language for private answers, the channel's for the public one)."""
        host = self.adapter.host
        mine = await host.user_language(self.adapter.user_ref(interaction))
        chat = self.adapter.chat_ref(interaction)
        return mine, (await host.chat_language(chat) if chat is not None else mine)

    async def on_photo(
        self, interaction: discord.Interaction[Any], photo: discord.Attachment, letters: str | None = None
    ) -> None:
        """Read ``photo`` as lettered ``letters``, or as the channel (in a direct message, the person) last said."""
        mine, public = await self._languages(interaction)
        refusal = self.flow.too_large(photo.size, mine)
        if refusal is None and not is_photo_file(photo.content_type, photo.filename):
            refusal = translator(mine).gettext(
                "This file cannot be read as a photo; send a photo of the cards (JPEG, PNG, WebP or HEIC).")
        if refusal is not None:  # told before anything is downloaded, to the sender alone
            await interaction.response.send_message(clip(markup(refusal), CONTENT_LIMIT), ephemeral=True)
            return
        await interaction.response.defer(thinking=True)  # downloading and reading take longer than Discord waits
        try:
            data = await photo.read()
        except (discord.HTTPException, discord.NotFound) as err:
            log.info("an attachment could not be downloaded: %s", err)
            text = translator(public).gettext("The photo could not be downloaded; send it again.")
            await interaction.edit_original_response(content=text)
            return
        chat, user = self.adapter.chat_ref(interaction), str(interaction.user.id)
        # a direct message has no sheet; the letters said there are kept for the person's next photos there
        sheet_key, letters_key = (chat.key, None) if chat is not None else (None, f"user:{user}")
        opened = await self.flow.open(data, user, public, letters, sheet_key, letters_key)
        await interaction.edit_original_response(content=clip(markup(opened.view.text), CONTENT_LIMIT),
                                                 view=_view(opened.view))

    async def on_press(self, interaction: discord.Interaction[Any], payload: str) -> None:
        mine, _ = await self._languages(interaction)
        if self.flow.reads_again(payload):  # reading the photo again may take longer than Discord waits for
            await interaction.response.defer()
        pressed = await self.flow.press(str(interaction.user.id), mine, payload)
        if pressed.view is None:
            if interaction.response.is_done():
                await interaction.followup.send(pressed.note or "·", ephemeral=True)
            else:
                await interaction.response.send_message(pressed.note or "·", ephemeral=True)
            return
        in_channel = self.adapter.chat_ref(interaction) is not None
        content, view = clip(markup(pressed.view.text), CONTENT_LIMIT), _view(pressed.view, in_channel)
        if interaction.response.is_done():
            await interaction.edit_original_response(content=content, view=view)
        else:
            await interaction.response.edit_message(content=content, view=view)
        if pressed.note:
            await interaction.followup.send(pressed.note, ephemeral=True)
