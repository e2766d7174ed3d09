"""Dump schema for RFC 9457 problem details, the body of every error."""

from marshmallow import Schema, fields

from schemas.common import OK_MEANING, described


class ProblemSchema(Schema):
    type = described(
        fields.Constant("about:blank"), "Always about:blank: the status says it all.", "about:blank", type="string"
    )
    title = described(fields.String(), "The HTTP reason phrase.", "Not Found")
    status = described(fields.Integer(), "The HTTP status code.", 404)
    detail = described(fields.String(), "One sentence saying what to change.", "No active corridor USD_XYZ.")
    code = described(fields.String(), "Stable machine-readable error code.", "unknown_corridor")
    ok = described(fields.Constant(False), OK_MEANING, False, type="boolean")
