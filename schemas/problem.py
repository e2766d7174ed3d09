"""Dump schema for RFC 9457 problem details, the body of every error."""

from marshmallow import Schema, fields


class ProblemSchema(Schema):
    type = fields.Constant(
        "about:blank",
        metadata={
            "description": "Always about:blank: the status says it all.",
            "example": "about:blank",
            "type": "string",
        },
    )
    title = fields.String(metadata={"description": "The HTTP reason phrase.", "example": "Not Found"})
    status = fields.Integer(metadata={"description": "The HTTP status code.", "example": 404})
    detail = fields.String(
        metadata={"description": "One sentence saying what to change.", "example": "No active corridor USD_XYZ."}
    )
    code = fields.String(metadata={"description": "Stable machine-readable error code.", "example": "unknown_corridor"})
    ok = fields.Constant(
        False,
        metadata={
            "description": "true when the request succeeded, false on an error.",
            "example": False,
            "type": "boolean",
        },
    )
