"""Dump schema for RFC 9457 problem details, the body of every error."""

from marshmallow import Schema, fields

from schemas.common import OK_MEANING, described


class ProblemSchema(Schema):
    type = described(fields.Constant("about:blank"), "about:blank", type="string")("""
        Always about:blank: the status says it all.""")
    title = described(fields.String(), "Not Found")("The HTTP reason phrase.")
    status = described(fields.Integer(), 404)("The HTTP status code.")
    detail = described(fields.String(), "No active corridor USD_XYZ.")("One sentence saying what to change.")
    code = described(fields.String(), "unknown_corridor")("Stable machine-readable error code.")
    ok = described(fields.Constant(False), False, type="boolean")(OK_MEANING)
