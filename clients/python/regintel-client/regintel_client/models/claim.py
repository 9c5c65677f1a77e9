from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.claim_kind import ClaimKind
from ..models.claim_operation import ClaimOperation
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.claim_flags_item import ClaimFlagsItem
    from ..models.claim_inputs_item import ClaimInputsItem


T = TypeVar("T", bound="Claim")


@_attrs_define
class Claim:
    """
    Attributes:
        display (str): The number exactly as the text writes it; for a rank, its phrase ("second-highest").
        id (str):
        kind (ClaimKind):
        value (float):
        citations (list[str] | Unset): Direct: the row the value is.
        derivation (str | Unset): The operation's formula in words.
        flags (list[ClaimFlagsItem] | Unset): The flags of every value in the claim's window: its rows, and for a change
            over time the values between them.
        inputs (list[ClaimInputsItem] | Unset): Derived: the cited values, in the operation's order.
        inputs_of (str | Unset): Derived: the id of the claim whose inputs (and flags) are this one's too, in place of
            `inputs`: the count of the regions a rank is among.
        operation (ClaimOperation | Unset):
        reads (str | Unset): How the text must state it when more than the display ("2.1 % more", "9.7 times"); a
            direction word at its end is checked against the inputs.
    """

    display: str
    id: str
    kind: ClaimKind
    value: float
    citations: list[str] | Unset = UNSET
    derivation: str | Unset = UNSET
    flags: list[ClaimFlagsItem] | Unset = UNSET
    inputs: list[ClaimInputsItem] | Unset = UNSET
    inputs_of: str | Unset = UNSET
    operation: ClaimOperation | Unset = UNSET
    reads: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        display = self.display

        id = self.id

        kind = self.kind.value

        value = self.value

        citations: list[str] | Unset = UNSET
        if not isinstance(self.citations, Unset):
            citations = self.citations

        derivation = self.derivation

        flags: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.flags, Unset):
            flags = []
            for flags_item_data in self.flags:
                flags_item = flags_item_data.to_dict()
                flags.append(flags_item)

        inputs: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.inputs, Unset):
            inputs = []
            for inputs_item_data in self.inputs:
                inputs_item = inputs_item_data.to_dict()
                inputs.append(inputs_item)

        inputs_of = self.inputs_of

        operation: str | Unset = UNSET
        if not isinstance(self.operation, Unset):
            operation = self.operation.value

        reads = self.reads

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "display": display,
                "id": id,
                "kind": kind,
                "value": value,
            }
        )
        if citations is not UNSET:
            field_dict["citations"] = citations
        if derivation is not UNSET:
            field_dict["derivation"] = derivation
        if flags is not UNSET:
            field_dict["flags"] = flags
        if inputs is not UNSET:
            field_dict["inputs"] = inputs
        if inputs_of is not UNSET:
            field_dict["inputs_of"] = inputs_of
        if operation is not UNSET:
            field_dict["operation"] = operation
        if reads is not UNSET:
            field_dict["reads"] = reads

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.claim_flags_item import ClaimFlagsItem  # noqa: PLC0415
        from ..models.claim_inputs_item import ClaimInputsItem  # noqa: PLC0415

        d = dict(src_dict)
        display = d.pop("display")

        id = d.pop("id")

        kind = ClaimKind(d.pop("kind"))

        value = d.pop("value")

        citations = cast(list[str], d.pop("citations", UNSET))

        derivation = d.pop("derivation", UNSET)

        _flags = d.pop("flags", UNSET)
        flags: list[ClaimFlagsItem] | Unset = UNSET
        if _flags is not UNSET:
            flags = []
            for flags_item_data in _flags:
                flags_item = ClaimFlagsItem.from_dict(flags_item_data)

                flags.append(flags_item)

        _inputs = d.pop("inputs", UNSET)
        inputs: list[ClaimInputsItem] | Unset = UNSET
        if _inputs is not UNSET:
            inputs = []
            for inputs_item_data in _inputs:
                inputs_item = ClaimInputsItem.from_dict(inputs_item_data)

                inputs.append(inputs_item)

        inputs_of = d.pop("inputs_of", UNSET)

        _operation = d.pop("operation", UNSET)
        operation: ClaimOperation | Unset
        if isinstance(_operation, Unset):
            operation = UNSET
        else:
            operation = ClaimOperation(_operation)

        reads = d.pop("reads", UNSET)

        claim = cls(
            display=display,
            id=id,
            kind=kind,
            value=value,
            citations=citations,
            derivation=derivation,
            flags=flags,
            inputs=inputs,
            inputs_of=inputs_of,
            operation=operation,
            reads=reads,
        )

        claim.additional_properties = d
        return claim

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
