"""The example evening in docs/evening-log.md is the engine's own output, not a paraphrase."""

from __future__ import annotations

import json
import re
from pathlib import Path

from club.formation import EUCHRE, replay, required

DOC = Path(__file__).resolve().parents[3] / "docs" / "evening-log.md"


def json_blocks(text: str) -> list:
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", text, re.S)]


def test_the_documented_example_evening_replays_to_the_documented_decisions():
    text = DOC.read_text()
    log, board = json_blocks(text)[:2]  # the example; later blocks show the exported file
    state = replay(EUCHRE, log)
    assert required(state) == board
    flat = " ".join(text.split())
    for decision in state.decisions:
        if decision.event >= 6:  # the arrivals are summarised in one line
            assert decision.text in flat, decision.text
