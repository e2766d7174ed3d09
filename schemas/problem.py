"""Dump schema for RFC 9457 problem details, the body of every error."""

from marshmallow import Schema, fields

from schemas.fields import meta


class ProblemSchema(Schema):
    type = fields.Constant(
        "about:blank", **meta("Always about:blank: the status says it all.", "about:blank", type="string")
    )
    title = fields.String(**meta("The HTTP reason phrase.", "Not Found"))
    status = fields.Integer(**meta("The HTTP status code.", 404))
    detail = fields.String(**meta("One sentence saying what to change.", "No active corridor USD_XYZ."))
    code = fields.String(**meta("Stable machine-readable error code.", "unknown_corridor"))
    ok = fields.Constant(False, **meta("true when the request succeeded, false on an error.", False, type="boolean"))
