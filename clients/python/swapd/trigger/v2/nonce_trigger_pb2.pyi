from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ArmRequest(_message.Message):
    __slots__ = ["order_id", "replaced_cancel", "replaces_order_id", "signed_transactions"]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    REPLACED_CANCEL_FIELD_NUMBER: _ClassVar[int]
    REPLACES_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    SIGNED_TRANSACTIONS_FIELD_NUMBER: _ClassVar[int]
    order_id: str
    replaced_cancel: bytes
    replaces_order_id: str
    signed_transactions: _containers.RepeatedScalarFieldContainer[bytes]
    def __init__(self, order_id: _Optional[str] = ..., signed_transactions: _Optional[_Iterable[bytes]] = ..., replaces_order_id: _Optional[str] = ..., replaced_cancel: _Optional[bytes] = ...) -> None: ...

class ArmResponse(_message.Message):
    __slots__ = ["group", "order", "replaced"]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    REPLACED_FIELD_NUMBER: _ClassVar[int]
    group: _containers.RepeatedCompositeFieldContainer[Order]
    order: Order
    replaced: Order
    def __init__(self, order: _Optional[_Union[Order, _Mapping]] = ..., group: _Optional[_Iterable[_Union[Order, _Mapping]]] = ..., replaced: _Optional[_Union[Order, _Mapping]] = ...) -> None: ...

class CancelOrderRequest(_message.Message):
    __slots__ = ["order_id", "signed_transaction", "taker"]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    SIGNED_TRANSACTION_FIELD_NUMBER: _ClassVar[int]
    TAKER_FIELD_NUMBER: _ClassVar[int]
    order_id: str
    signed_transaction: bytes
    taker: str
    def __init__(self, order_id: _Optional[str] = ..., taker: _Optional[str] = ..., signed_transaction: _Optional[bytes] = ...) -> None: ...

class CancelOrderResponse(_message.Message):
    __slots__ = ["group", "order", "signature", "transaction"]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    TRANSACTION_FIELD_NUMBER: _ClassVar[int]
    group: _containers.RepeatedCompositeFieldContainer[Order]
    order: Order
    signature: str
    transaction: bytes
    def __init__(self, transaction: _Optional[bytes] = ..., order: _Optional[_Union[Order, _Mapping]] = ..., signature: _Optional[str] = ..., group: _Optional[_Iterable[_Union[Order, _Mapping]]] = ...) -> None: ...

class CreateOrderRequest(_message.Message):
    __slots__ = ["amount", "dca", "entry", "expires_at", "input_mint", "kind", "nonce_account", "nonce_accounts", "output_mint", "price_mint", "routes_per_leg", "stop_loss", "take_profit", "taker", "trailing"]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    DCA_FIELD_NUMBER: _ClassVar[int]
    ENTRY_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    INPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    NONCE_ACCOUNTS_FIELD_NUMBER: _ClassVar[int]
    NONCE_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    PRICE_MINT_FIELD_NUMBER: _ClassVar[int]
    ROUTES_PER_LEG_FIELD_NUMBER: _ClassVar[int]
    STOP_LOSS_FIELD_NUMBER: _ClassVar[int]
    TAKER_FIELD_NUMBER: _ClassVar[int]
    TAKE_PROFIT_FIELD_NUMBER: _ClassVar[int]
    TRAILING_FIELD_NUMBER: _ClassVar[int]
    amount: int
    dca: DcaRequest
    entry: LegRequest
    expires_at: int
    input_mint: str
    kind: str
    nonce_account: str
    nonce_accounts: _containers.RepeatedScalarFieldContainer[str]
    output_mint: str
    price_mint: str
    routes_per_leg: int
    stop_loss: LegRequest
    take_profit: LegRequest
    taker: str
    trailing: LegRequest
    def __init__(self, taker: _Optional[str] = ..., input_mint: _Optional[str] = ..., output_mint: _Optional[str] = ..., amount: _Optional[int] = ..., kind: _Optional[str] = ..., take_profit: _Optional[_Union[LegRequest, _Mapping]] = ..., stop_loss: _Optional[_Union[LegRequest, _Mapping]] = ..., trailing: _Optional[_Union[LegRequest, _Mapping]] = ..., nonce_account: _Optional[str] = ..., routes_per_leg: _Optional[int] = ..., entry: _Optional[_Union[LegRequest, _Mapping]] = ..., dca: _Optional[_Union[DcaRequest, _Mapping]] = ..., nonce_accounts: _Optional[_Iterable[str]] = ..., price_mint: _Optional[str] = ..., expires_at: _Optional[int] = ...) -> None: ...

class CreateOrderResponse(_message.Message):
    __slots__ = ["cancel_transaction", "current_out_amount", "expires_at", "legs", "nonce_account", "nonce_account_transaction", "nonce_account_transactions", "nonce_accounts", "order_id", "priced_by"]
    CANCEL_TRANSACTION_FIELD_NUMBER: _ClassVar[int]
    CURRENT_OUT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    LEGS_FIELD_NUMBER: _ClassVar[int]
    NONCE_ACCOUNTS_FIELD_NUMBER: _ClassVar[int]
    NONCE_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    NONCE_ACCOUNT_TRANSACTIONS_FIELD_NUMBER: _ClassVar[int]
    NONCE_ACCOUNT_TRANSACTION_FIELD_NUMBER: _ClassVar[int]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    PRICED_BY_FIELD_NUMBER: _ClassVar[int]
    cancel_transaction: bytes
    current_out_amount: int
    expires_at: int
    legs: _containers.RepeatedCompositeFieldContainer[IssuedLeg]
    nonce_account: str
    nonce_account_transaction: bytes
    nonce_account_transactions: _containers.RepeatedScalarFieldContainer[bytes]
    nonce_accounts: _containers.RepeatedScalarFieldContainer[str]
    order_id: str
    priced_by: PriceQuote
    def __init__(self, order_id: _Optional[str] = ..., nonce_account: _Optional[str] = ..., nonce_account_transaction: _Optional[bytes] = ..., legs: _Optional[_Iterable[_Union[IssuedLeg, _Mapping]]] = ..., current_out_amount: _Optional[int] = ..., nonce_accounts: _Optional[_Iterable[str]] = ..., nonce_account_transactions: _Optional[_Iterable[bytes]] = ..., priced_by: _Optional[_Union[PriceQuote, _Mapping]] = ..., cancel_transaction: _Optional[bytes] = ..., expires_at: _Optional[int] = ...) -> None: ...

class DcaRequest(_message.Message):
    __slots__ = ["interval_seconds", "max_price", "min_out_amount", "min_price", "rounds", "start_at"]
    INTERVAL_SECONDS_FIELD_NUMBER: _ClassVar[int]
    MAX_PRICE_FIELD_NUMBER: _ClassVar[int]
    MIN_OUT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    MIN_PRICE_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    START_AT_FIELD_NUMBER: _ClassVar[int]
    interval_seconds: int
    max_price: str
    min_out_amount: int
    min_price: str
    rounds: int
    start_at: int
    def __init__(self, rounds: _Optional[int] = ..., interval_seconds: _Optional[int] = ..., start_at: _Optional[int] = ..., min_price: _Optional[str] = ..., max_price: _Optional[str] = ..., min_out_amount: _Optional[int] = ...) -> None: ...

class GetOrdersRequest(_message.Message):
    __slots__ = ["page_size", "page_token", "taker"]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TAKER_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    taker: str
    def __init__(self, taker: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class GetOrdersResponse(_message.Message):
    __slots__ = ["next_page_token", "orders"]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ORDERS_FIELD_NUMBER: _ClassVar[int]
    next_page_token: str
    orders: _containers.RepeatedCompositeFieldContainer[Order]
    def __init__(self, orders: _Optional[_Iterable[_Union[Order, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class IssuedLeg(_message.Message):
    __slots__ = ["amount", "kind", "leg_index", "min_out_amount", "nonce_account", "not_before", "order_id", "quoted_out_amount", "route_index", "route_label", "transaction", "trigger_max_out_amount", "trigger_out_amount"]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LEG_INDEX_FIELD_NUMBER: _ClassVar[int]
    MIN_OUT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    NONCE_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    NOT_BEFORE_FIELD_NUMBER: _ClassVar[int]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    QUOTED_OUT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    ROUTE_INDEX_FIELD_NUMBER: _ClassVar[int]
    ROUTE_LABEL_FIELD_NUMBER: _ClassVar[int]
    TRANSACTION_FIELD_NUMBER: _ClassVar[int]
    TRIGGER_MAX_OUT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    TRIGGER_OUT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    amount: int
    kind: str
    leg_index: int
    min_out_amount: int
    nonce_account: str
    not_before: int
    order_id: str
    quoted_out_amount: int
    route_index: int
    route_label: str
    transaction: bytes
    trigger_max_out_amount: int
    trigger_out_amount: int
    def __init__(self, kind: _Optional[str] = ..., leg_index: _Optional[int] = ..., route_index: _Optional[int] = ..., transaction: _Optional[bytes] = ..., trigger_out_amount: _Optional[int] = ..., min_out_amount: _Optional[int] = ..., quoted_out_amount: _Optional[int] = ..., route_label: _Optional[str] = ..., order_id: _Optional[str] = ..., nonce_account: _Optional[str] = ..., not_before: _Optional[int] = ..., trigger_max_out_amount: _Optional[int] = ..., amount: _Optional[int] = ...) -> None: ...

class Leg(_message.Message):
    __slots__ = ["error", "in_amount", "kind", "leg_index", "min_out_amount", "out_amount", "route_index", "signature", "slot", "status", "trigger_max_out_amount", "trigger_out_amount"]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    IN_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LEG_INDEX_FIELD_NUMBER: _ClassVar[int]
    MIN_OUT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    OUT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    ROUTE_INDEX_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TRIGGER_MAX_OUT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    TRIGGER_OUT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    error: str
    in_amount: int
    kind: str
    leg_index: int
    min_out_amount: int
    out_amount: int
    route_index: int
    signature: str
    slot: int
    status: str
    trigger_max_out_amount: int
    trigger_out_amount: int
    def __init__(self, kind: _Optional[str] = ..., leg_index: _Optional[int] = ..., route_index: _Optional[int] = ..., trigger_out_amount: _Optional[int] = ..., min_out_amount: _Optional[int] = ..., status: _Optional[str] = ..., signature: _Optional[str] = ..., in_amount: _Optional[int] = ..., out_amount: _Optional[int] = ..., slot: _Optional[int] = ..., error: _Optional[str] = ..., trigger_max_out_amount: _Optional[int] = ...) -> None: ...

class LegRequest(_message.Message):
    __slots__ = ["min_out_amount", "price", "trail_bps"]
    MIN_OUT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    PRICE_FIELD_NUMBER: _ClassVar[int]
    TRAIL_BPS_FIELD_NUMBER: _ClassVar[int]
    min_out_amount: int
    price: str
    trail_bps: int
    def __init__(self, price: _Optional[str] = ..., min_out_amount: _Optional[int] = ..., trail_bps: _Optional[int] = ...) -> None: ...

class Order(_message.Message):
    __slots__ = ["after_order_id", "amount", "armed_at", "cancel_requested", "cancel_signature", "created_at", "expires_at", "finished_at", "group_id", "group_kind", "input_mint", "kind", "legs", "nonce_account", "not_before", "note", "order_id", "output_mint", "peak_out_amount", "price_mint", "status", "taker", "trail_bps", "triggered_at"]
    AFTER_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    ARMED_AT_FIELD_NUMBER: _ClassVar[int]
    CANCEL_REQUESTED_FIELD_NUMBER: _ClassVar[int]
    CANCEL_SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    FINISHED_AT_FIELD_NUMBER: _ClassVar[int]
    GROUP_ID_FIELD_NUMBER: _ClassVar[int]
    GROUP_KIND_FIELD_NUMBER: _ClassVar[int]
    INPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LEGS_FIELD_NUMBER: _ClassVar[int]
    NONCE_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    NOT_BEFORE_FIELD_NUMBER: _ClassVar[int]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    PEAK_OUT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    PRICE_MINT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TAKER_FIELD_NUMBER: _ClassVar[int]
    TRAIL_BPS_FIELD_NUMBER: _ClassVar[int]
    TRIGGERED_AT_FIELD_NUMBER: _ClassVar[int]
    after_order_id: str
    amount: int
    armed_at: _timestamp_pb2.Timestamp
    cancel_requested: bool
    cancel_signature: str
    created_at: _timestamp_pb2.Timestamp
    expires_at: _timestamp_pb2.Timestamp
    finished_at: _timestamp_pb2.Timestamp
    group_id: str
    group_kind: str
    input_mint: str
    kind: str
    legs: _containers.RepeatedCompositeFieldContainer[Leg]
    nonce_account: str
    not_before: _timestamp_pb2.Timestamp
    note: str
    order_id: str
    output_mint: str
    peak_out_amount: int
    price_mint: str
    status: str
    taker: str
    trail_bps: int
    triggered_at: _timestamp_pb2.Timestamp
    def __init__(self, order_id: _Optional[str] = ..., kind: _Optional[str] = ..., taker: _Optional[str] = ..., input_mint: _Optional[str] = ..., output_mint: _Optional[str] = ..., amount: _Optional[int] = ..., nonce_account: _Optional[str] = ..., status: _Optional[str] = ..., note: _Optional[str] = ..., trail_bps: _Optional[int] = ..., peak_out_amount: _Optional[int] = ..., cancel_requested: bool = ..., legs: _Optional[_Iterable[_Union[Leg, _Mapping]]] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., armed_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., triggered_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., finished_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., cancel_signature: _Optional[str] = ..., group_id: _Optional[str] = ..., group_kind: _Optional[str] = ..., after_order_id: _Optional[str] = ..., not_before: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., expires_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., price_mint: _Optional[str] = ...) -> None: ...

class PriceQuote(_message.Message):
    __slots__ = ["in_amount", "input_mint", "out_amount", "output_mint", "route_label"]
    INPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    IN_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    OUT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    ROUTE_LABEL_FIELD_NUMBER: _ClassVar[int]
    in_amount: int
    input_mint: str
    out_amount: int
    output_mint: str
    route_label: str
    def __init__(self, input_mint: _Optional[str] = ..., output_mint: _Optional[str] = ..., in_amount: _Optional[int] = ..., out_amount: _Optional[int] = ..., route_label: _Optional[str] = ...) -> None: ...

class WatchOrdersRequest(_message.Message):
    __slots__ = ["taker"]
    TAKER_FIELD_NUMBER: _ClassVar[int]
    taker: str
    def __init__(self, taker: _Optional[str] = ...) -> None: ...

class WatchOrdersResponse(_message.Message):
    __slots__ = ["order"]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    order: Order
    def __init__(self, order: _Optional[_Union[Order, _Mapping]] = ...) -> None: ...
