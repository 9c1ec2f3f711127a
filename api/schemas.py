"""marshmallow schemas: what the API loads and what it dumps. Unknown fields are errors."""

from __future__ import annotations

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from api.fields import UUID_PATTERN, Id, StrictBool, StrictInt, UtcDateTime

AI_LEVELS = ("easy", "normal", "strong")
STATUSES = ("waiting", "active", "finished", "aborted")


class Strict(Schema):
    class Meta:
        unknown = RAISE


# requests ------------------------------------------------------------------------------
class PlayerCreate(Strict):
    name = fields.Str(required=True, validate=validate.Length(min=1, max=64))
    email = fields.Email(load_default=None, allow_none=True)
    #: an account people can keep (issue 28): sign in with email and password
    password = fields.Str(load_default=None, validate=validate.Length(min=8, max=256))

    @validates_schema
    def password_needs_email(self, data, **kwargs):
        if data.get("password") is not None and not data.get("email"):
            raise ValidationError("a password signs in with an email: give both", "password")


class NotifySettings(Strict):
    """Partial: the keys given replace the stored ones."""

    your_turn = StrictBool()
    reminder = StrictBool()
    finished = StrictBool()
    messages = StrictBool()
    digest = fields.Str(validate=validate.OneOf(("off", "daily")))


class PlayerSettings(Strict):
    #: every mail off (true keeps the choices of ``notify``)
    notify_by_email = StrictBool()
    vacation_until = UtcDateTime(allow_none=True)
    email = fields.Email(allow_none=True, validate=validate.Length(max=254))
    notify = fields.Nested(NotifySettings)


class EmailVerification(Strict):
    token = fields.Str(required=True, validate=validate.Length(min=1, max=200))


class SeatSpec(Strict):
    player_id = Id()
    ai = fields.Str(validate=validate.OneOf(AI_LEVELS))
    open = StrictBool()

    @validates_schema
    def exactly_one(self, data, **_):
        given = [k for k in ("player_id", "ai", "open") if k in data]
        if len(given) != 1:
            raise ValidationError("a seat is {player_id}, {ai} or {open: true}")
        if "open" in data and data["open"] is not True:
            raise ValidationError("open must be true", "open")


class GameCreate(Strict):
    title = fields.Str(required=True)
    options = fields.Dict(keys=fields.Str(), load_default=dict)
    seats = fields.List(fields.Nested(SeatSpec), required=True, validate=validate.Length(min=1, max=8))
    #: validated by the service (service/correspondence/time_control.py), which knows the creation time
    time_control = fields.Dict(keys=fields.Str(), load_default=None, allow_none=True)
    seed = fields.Str(load_default=None, allow_none=True, validate=validate.Regexp(
        r"^[0-9a-fA-F]{64}\Z", error="must be 64 hex digits (32 bytes)"))  # \Z: $ lets a newline through
    # the lobby (service/lobby/service.py): rated by default between people, public by default
    rated = StrictBool(load_default=None, allow_none=True)
    private = StrictBool(load_default=False)
    rating_range = fields.Nested("RatingRange", load_default=None, allow_none=True)


class RatingRange(Strict):
    min = StrictInt(load_default=None, allow_none=True, validate=validate.Range(min=-100_000, max=100_000))
    max = StrictInt(load_default=None, allow_none=True, validate=validate.Range(min=-100_000, max=100_000))


class CommandRequest(Strict):
    seat = StrictInt(load_default=None, allow_none=True, validate=validate.Range(min=0))
    expected_version = StrictInt(load_default=None, allow_none=True, validate=validate.Range(min=0))
    command = fields.Dict(keys=fields.Str(), required=True)


class GameQuery(Strict):
    player = fields.Str(load_default=None, validate=validate.Regexp(
        f"^(me|{UUID_PATTERN[1:-1]})\\Z",  # \Z: $ would let a trailing newline through
        error="must be 'me' or a player id"))
    status = fields.Str(load_default=None, validate=validate.OneOf(STATUSES))
    title = fields.Str(load_default=None)
    limit = fields.Int(load_default=50, validate=validate.Range(min=1, max=200))
    cursor = fields.Str(load_default=None)
    #: only the games waiting for the caller, most urgent first (correspondence play)
    to_act = fields.Str(load_default=None, validate=validate.OneOf(("me",)))
    # the archive (status=finished): the named player's result, the form, finished from / before
    result = fields.Str(load_default=None, validate=validate.OneOf(("won", "lost", "any")))
    form = fields.Str(load_default=None, validate=validate.Length(min=1, max=64))
    after = UtcDateTime(load_default=None)
    before = UtcDateTime(load_default=None)


class ExportsQuery(Strict):
    title = fields.Str(load_default=None)
    finished_after = UtcDateTime(load_default=None)
    finished_before = UtcDateTime(load_default=None)
    cursor = fields.Str(load_default=None)
    limit = fields.Int(load_default=20, validate=validate.Range(min=1, max=100))


class SeatQuery(Strict):
    seat = fields.Int(load_default=None, validate=validate.Range(min=0))


class CommandQuery(Strict):
    #: ``legal_commands``: the answer also tells what the sender may play next
    include = fields.Str(load_default=None, validate=validate.OneOf(["legal_commands"]))


class EventsQuery(SeatQuery):
    after = fields.Int(load_default=0, validate=validate.Range(min=0))
    limit = fields.Int(load_default=200, validate=validate.Range(min=1, max=1000))


class MessageCreate(Strict):
    channel = fields.Str(load_default="table", validate=validate.OneOf(("table", "team")))
    text = fields.Str(required=True, validate=validate.Length(min=1, max=2000))
    seat = StrictInt(load_default=None, allow_none=True, validate=validate.Range(min=0))


class MessagesQuery(SeatQuery):
    after = fields.Int(load_default=0, validate=validate.Range(min=0))
    limit = fields.Int(load_default=100, validate=validate.Range(min=1, max=500))


class MessageOut(Schema):
    seq = fields.Int()
    seat = fields.Int()
    channel = fields.Str()
    text = fields.Str()
    at = fields.Str()


class MessagePageOut(Schema):
    messages = fields.List(fields.Nested(MessageOut))
    next_after = fields.Int(allow_none=True)


class StreamQuery(SeatQuery):
    after = fields.Int(load_default=0, validate=validate.Range(min=0))
    keepalive = fields.Float(load_default=15.0, validate=validate.Range(min=0.05, max=60))
    timeout = fields.Float(load_default=300.0, validate=validate.Range(min=0.1, max=3600))


class StateQuery(SeatQuery):
    at = fields.Int(load_default=None, validate=validate.Range(min=1))


# responses -----------------------------------------------------------------------------
class PlayerOut(Schema):
    id = fields.Str()
    name = fields.Str()
    email = fields.Str(allow_none=True)


class NewPlayerOut(PlayerOut):
    token = fields.Str()


class MeOut(PlayerOut):
    notify_by_email = fields.Bool()
    email_verified = fields.Function(lambda p: p.email is not None and p.email_verified_at is not None)
    notify = fields.Dict()
    vacation_until = fields.AwareDateTime(allow_none=True)
    created_at = fields.AwareDateTime()


class SeatOut(Schema):
    index = fields.Int()
    player_id = fields.Str(allow_none=True)
    name = fields.Str(allow_none=True)
    ai = fields.Str(allow_none=True)
    status = fields.Str()


class GameSummaryOut(Schema):
    id = fields.Str()
    title = fields.Str()
    rules_version = fields.Str()
    options = fields.Dict()
    status = fields.Str()
    seats = fields.List(fields.Nested(SeatOut))
    version = fields.Int()
    to_act = fields.List(fields.Int())
    deadline = fields.AwareDateTime(allow_none=True)
    result = fields.Dict(allow_none=True)
    seed_commitment = fields.Str()
    seed_source = fields.Str()
    #: the player who created the game (who invited the others), None when the server did
    created_by = fields.Str(allow_none=True)
    created_at = fields.AwareDateTime()
    updated_at = fields.AwareDateTime()
    # correspondence play: the game's time control and its table (domain/common/table.py)
    time_control = fields.Dict(allow_none=True)
    clocks = fields.Function(lambda game: _table(game, "clocks"))
    away = fields.Function(lambda game: _table(game, "away"))
    out = fields.Function(lambda game: _table(game, "out"))
    abort_requests = fields.Function(lambda game: _table(game, "abort_requests"))
    rated = fields.Bool()
    private = fields.Bool()
    rating_range = fields.Function(lambda game: _rating_range(game))
    expires_at = fields.AwareDateTime(allow_none=True)
    banks = fields.Function(lambda game: _table(game, "banks"))
    takeback = fields.Function(lambda game: _table(game, "takeback") or None)


def _rating_range(game) -> dict | None:
    low, high = (game.get("min_rating"), game.get("max_rating")) if isinstance(game, dict) else (
        getattr(game, "min_rating", None), getattr(game, "max_rating", None))
    return None if low is None and high is None else {"min": low, "max": high}


def _table(game, part: str) -> list:
    table = game.get("table") if isinstance(game, dict) else getattr(game, "table", None)
    found = (table or {}).get(part, [])
    if part == "away":  # the vacation's id is the player's business
        return [{"seat": a["seat"], "until": a["until"]} for a in found]
    return found


class GameOut(GameSummaryOut):
    view = fields.Dict(allow_none=True)
    your_seats = fields.List(fields.Int())
    viewer_seat = fields.Int(allow_none=True)
    seed = fields.Str(allow_none=True)


class EventOut(Schema):
    seq = fields.Int()
    type = fields.Str()
    schema_version = fields.Int()
    at = fields.Str()
    seat = fields.Int(allow_none=True)
    data = fields.Raw()


class CommandOutcomeOut(Schema):
    version = fields.Int()
    status = fields.Str()
    to_act = fields.List(fields.Int())
    events = fields.List(fields.Nested(EventOut))
    receipt = fields.Dict(allow_none=True)


class EventPageOut(Schema):
    events = fields.List(fields.Nested(EventOut))
    next_after = fields.Int()


class LegalCommandsOut(Schema):
    version = fields.Int()
    seat = fields.Int()
    commands = fields.List(fields.Dict())
    descriptions = fields.List(fields.Str())


class TitleOut(Schema):
    id = fields.Str()
    name = fields.Str()
    rules_version = fields.Str()
    min_players = fields.Int()
    max_players = fields.Int()
    variants = fields.List(fields.Str())
    ai_levels = fields.List(fields.Str())
    options_schema = fields.Dict()
    commands = fields.List(fields.Str())


class TitleDetailOut(TitleOut):
    components = fields.Dict()


# correspondence play -----------------------------------------------------------------------
class SeatChoice(Strict):
    seat = StrictInt(load_default=None, allow_none=True, validate=validate.Range(min=0))


class VacationIn(Strict):
    from_ = UtcDateTime(data_key="from", load_default=None, allow_none=True)
    until = UtcDateTime(required=True)


class VacationPeriodOut(Schema):
    id = fields.Str()
    from_ = fields.AwareDateTime(data_key="from", attribute="starts_at")
    until = fields.AwareDateTime(attribute="ends_at")


class VacationOut(Schema):
    current = fields.Nested(VacationPeriodOut, allow_none=True)
    used_days = fields.Float()
    allowance_days = fields.Float()


# notifications: webhooks and the player's stream ---------------------------------------
NOTIFICATION_TYPES = ("your_turn", "reminder", "finished", "message")


class WebhookCreate(Strict):
    url = fields.Str(required=True, validate=validate.Length(min=1, max=2000))
    events = fields.List(fields.Str(validate=validate.OneOf(NOTIFICATION_TYPES)), required=True,
                         validate=validate.Length(min=1, max=len(NOTIFICATION_TYPES)))
    format = fields.Str(load_default="standard", validate=validate.OneOf(("standard", "discord", "slack")))


class DeliveriesQuery(Strict):
    limit = fields.Int(load_default=50, validate=validate.Range(min=1, max=200))


class PlayerStreamQuery(Strict):
    #: a notification id, or "latest": only what comes after the caller's newest one (a page
    #: that shows the present, like the web client's dashboard, needs no history)
    after = fields.Str(load_default="0", validate=validate.Regexp(r"\A(?:[0-9]{1,18}|latest)\Z",
                                                                  error="a notification id or latest"))
    keepalive = fields.Float(load_default=15.0, validate=validate.Range(min=0.05, max=60))
    timeout = fields.Float(load_default=300.0, validate=validate.Range(min=0.1, max=3600))


class WebhookOut(Schema):
    id = fields.Str()
    url = fields.Str()
    events = fields.List(fields.Str())
    active = fields.Bool()
    created_at = fields.AwareDateTime()
    disabled_at = fields.AwareDateTime(allow_none=True)
    disabled_reason = fields.Str(allow_none=True)
    format = fields.Str()


class NewWebhookOut(WebhookOut):
    secret = fields.Str()


class WebhookListOut(Schema):
    webhooks = fields.List(fields.Nested(WebhookOut))


class DeliveryOut(Schema):
    id = fields.Str()
    notification_id = fields.Int()
    type = fields.Str()
    state = fields.Str()
    attempts = fields.Int()
    last_status = fields.Int(allow_none=True)
    last_error = fields.Str(allow_none=True)
    delivered_at = fields.AwareDateTime(allow_none=True)
    next_attempt_at = fields.AwareDateTime(allow_none=True)
    created_at = fields.AwareDateTime()


class DeliveryListOut(Schema):
    deliveries = fields.List(fields.Nested(DeliveryOut))
