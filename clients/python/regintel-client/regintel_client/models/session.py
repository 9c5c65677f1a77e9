from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.account import Account


T = TypeVar("T", bound="Session")


@_attrs_define
class Session:
    """
    Attributes:
        access_token (str): Send as `Authorization: Bearer`.
        account (Account):
        expires_in (int): seconds
        token_type (Literal['Bearer']):
    """

    access_token: str
    account: Account
    expires_in: int
    token_type: Literal["Bearer"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        access_token = self.access_token

        account = self.account.to_dict()

        expires_in = self.expires_in

        token_type = self.token_type

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "access_token": access_token,
                "account": account,
                "expires_in": expires_in,
                "token_type": token_type,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.account import Account  # noqa: PLC0415

        d = dict(src_dict)
        access_token = d.pop("access_token")

        account = Account.from_dict(d.pop("account"))

        expires_in = d.pop("expires_in")

        token_type = cast(Literal["Bearer"], d.pop("token_type"))
        if token_type != "Bearer":
            raise ValueError(f"token_type must match const 'Bearer', got '{token_type}'")

        session = cls(
            access_token=access_token,
            account=account,
            expires_in=expires_in,
            token_type=token_type,
        )

        session.additional_properties = d
        return session

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
