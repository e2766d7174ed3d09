"""Group B's camelCase names, made from the snake_case ones its schemas declare (marshmallow's "Implementing
Camel-case keys")."""

from marshmallow import Schema, fields

# a pair's currencies, named as the queries name them
PAIR_NAMES = {"from_currency": "from", "to_currency": "to"}


class CamelCaseSchema(Schema):
    """A schema whose fields dump under the camelCase of their names: `offers_over_5_pct` as `offersOver5Pct`;
    `from_currency` and `to_currency` as `from` and `to`."""

    def on_bind_field(self, field_name: str, field_obj: fields.Field) -> None:
        head, *rest = (field_obj.data_key or PAIR_NAMES.get(field_name, field_name)).split("_")
        field_obj.data_key = head + "".join(part.title() for part in rest)
