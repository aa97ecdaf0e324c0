"""The engine's questions and events live in the shared core (cribcore.table.questions):
re-exported here for the host's front ends."""

from cribcore.table.questions import KINDS, SETUP_KINDS, Ask, Event, Events, Question, event_dict

__all__ = ["KINDS", "SETUP_KINDS", "Ask", "Event", "Events", "Question", "event_dict"]
