"""A member filling in a modal the app answered an interaction with (MODAL_SUBMIT)."""

from __future__ import annotations

from .actions import MemberActions
from .interactions import MODAL, MODAL_SUBMIT, InteractionRecord
from .modals import submit_data


class ModalActions(MemberActions):
    """MemberActions, and submitting a modal."""

    def modal_of(self, interaction_id: str) -> dict[str, object] | None:
        """The modal the app answered an interaction with (None: it answered otherwise)."""
        record = self.state.interactions.get(interaction_id=interaction_id)
        sent = [c["data"] for c in record.callbacks if c["type"] == MODAL]
        return sent[0] if sent else None

    def submit_modal(
        self, interaction_id: str, values: dict[str, str], *, user: str | None = None
    ) -> InteractionRecord:
        """The member who got the modal (or `user`: a forged one) submits it with `values`
        by text input custom id -> the MODAL_SUBMIT interaction's record. Discord sends it
        in the channel of the interaction the modal answered, with the message its button
        was on (when it was a button's)."""
        record = self.state.interactions.get(interaction_id=interaction_id)
        modal = self.modal_of(interaction_id)
        if modal is None:
            raise ValueError(f"interaction {interaction_id} was not answered with a modal")
        message = record.payload.get("message")
        return self._interaction(
            type=MODAL_SUBMIT,
            data=submit_data(modal=modal, values=values),
            user=user or record.user_id,
            channel_id=record.channel_id,
            message=message if isinstance(message, dict) else None,
        )
