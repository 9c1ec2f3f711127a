"""Strict marshmallow fields: JSON's own types only, ids in one spelling, dates the database
can store. marshmallow's defaults are lenient (1 == True, "5" is an int, any UUID spelling)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from marshmallow import ValidationError, fields

#: The one spelling of an id the API gives and takes: lowercase, hyphenated.
CANONICAL_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
UUID_PATTERN = CANONICAL_UUID.pattern


class StrictBool(fields.Boolean):
    """Only JSON true and false (marshmallow's truthy sets match 1 and 0: 1 == True)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise ValidationError("must be true or false")
        return value


class StrictInt(fields.Integer):
    """Only JSON integers: not booleans, floats or strings."""

    def __init__(self, **kwargs):
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool):
            raise ValidationError("must be an integer")
        return super()._deserialize(value, attr, data, **kwargs)


class Id(fields.String):
    """An id as the API spells it (lowercase, hyphenated UUID); returned as that string."""

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        if not CANONICAL_UUID.fullmatch(text):  # match() would let "...\n" through ($)
            raise ValidationError("must be an id as this API spells it (lowercase, hyphenated UUID)")
        return text


class UtcDateTime(fields.AwareDateTime):
    """An RFC 3339 time with an offset, kept in UTC, within the years PostgreSQL and Python
    both hold (a year-1 time with a positive offset is year 0 in UTC)."""

    EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
    LATEST = datetime(9999, 1, 1, tzinfo=UTC)

    def __init__(self, **kwargs):
        super().__init__(format="iso", **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        moment = super()._deserialize(value, attr, data, **kwargs)
        try:
            moment = moment.astimezone(UTC)
        except OverflowError:
            raise ValidationError("is out of range") from None
        if not self.EARLIEST <= moment < self.LATEST:
            raise ValidationError("must be between 1970 and 9998 (UTC)")
        return moment
