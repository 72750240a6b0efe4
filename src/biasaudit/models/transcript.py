"""Rendering chat messages as a plain transcript for base models without a chat template.

A base model (e.g. Gemma 3 270M) has never seen chat markup. Its chat requests are rendered as
a "Role: text" transcript ending with "Assistant:", generation stops where the model would
start the next user turn, and results record that the transcript format was used.
"""

from __future__ import annotations

from collections.abc import Sequence

from biasaudit.requests import Message

ROLE_LABELS = {"system": "System", "user": "User", "assistant": "Assistant"}

#: Extra stop strings so a base model does not write the next user turn itself.
TRANSCRIPT_STOPS = ("\nUser:", "\nSystem:")


def render_transcript(messages: Sequence[Message]) -> str:
    """'System: ...\\n\\nUser: ...\\n\\nAssistant:' with one blank line between turns."""
    turns = [f"{ROLE_LABELS[m.role]}: {m.content.strip()}" for m in messages]
    return "\n\n".join([*turns, "Assistant:"])
