# SPDX-License-Identifier: GPL-3.0-or-later
"""Messages by id (FORMAT.md "Message ids"): user-visible text that the studio can translate.

``text("load.file_missing", path=p)`` is the English text of the catalog entry (core/protocol/
messages.json, generated into messagecatalog.py) as a ``str``, so it goes wherever a message went
before (FrontendError, a log line, a result field), and it also carries its id and args:
``msg_of(value)`` gives ``{"id", "args"}`` for the wire's ``*_msg`` field, None for a plain str.
Concatenating or formatting a Text makes a plain str (the id no longer describes it).
"""

from .messagecatalog import MESSAGES


def _plain(value):
    """A JSON value for an arg: numbers (numpy's and torch's scalars too) as int/float, else str."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    item = getattr(value, "item", None)
    if callable(item):
        try:
            v = item()
            if isinstance(v, (int, float)):
                return v
        except (TypeError, ValueError, RuntimeError):
            pass
    return str(value)


class Text(str):
    """English text of catalog message ``msg_id`` with ``msg_args``; a str everywhere else."""

    msg_id: str
    msg_args: dict

    def __new__(cls, msg_id: str, args: dict):
        try:
            template, names = MESSAGES[msg_id]
        except KeyError:
            raise KeyError(f"message id '{msg_id}' is not in core/protocol/messages.json") from None
        if set(args) != set(names):
            raise TypeError(f"message '{msg_id}' takes args {sorted(names)}, given {sorted(args)}")
        plain = {k: _plain(v) for k, v in args.items()}
        self = super().__new__(cls, template.format(**plain))
        self.msg_id = msg_id
        self.msg_args = plain
        return self

    def __reduce__(self):
        # Pickling (a Ray task's error) keeps the id.
        return (Text, (self.msg_id, self.msg_args))


def text(msg_id: str, **args) -> Text:
    """The message ``msg_id`` with ``args`` (exactly the catalog's arg names; KeyError for an id the
    catalog lacks, TypeError for missing or extra args: both are bugs caught by the tests)."""
    return Text(msg_id, args)


def msg_of(value):
    """``{"id", "args"}`` of a Text, None for anything else (a plain str has no id)."""
    if isinstance(value, Text):
        return {"id": value.msg_id, "args": value.msg_args}
    return None
