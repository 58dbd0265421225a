from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor
EXECUTION_STATUS_FAILED: ExecutionStatus
EXECUTION_STATUS_SUCCESS: ExecutionStatus
EXECUTION_STATUS_UNSPECIFIED: ExecutionStatus
ORDER_STATUS_CANCELLED: OrderStatus
ORDER_STATUS_COMPLETED: OrderStatus
ORDER_STATUS_OPEN: OrderStatus
ORDER_STATUS_UNSPECIFIED: OrderStatus

class CancelOrderRequest(_message.Message):
    __slots__ = ["compute_unit_price", "maker", "order"]
    COMPUTE_UNIT_PRICE_FIELD_NUMBER: _ClassVar[int]
    MAKER_FIELD_NUMBER: _ClassVar[int]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    compute_unit_price: str
    maker: str
    order: str
    def __init__(self, maker: _Optional[str] = ..., order: _Optional[str] = ..., compute_unit_price: _Optional[str] = ...) -> None: ...

class CancelOrderResponse(_message.Message):
    __slots__ = ["request_id", "transaction"]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    TRANSACTION_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    transaction: bytes
    def __init__(self, transaction: _Optional[bytes] = ..., request_id: _Optional[str] = ...) -> None: ...

class CancelOrdersRequest(_message.Message):
    __slots__ = ["compute_unit_price", "maker", "orders"]
    COMPUTE_UNIT_PRICE_FIELD_NUMBER: _ClassVar[int]
    MAKER_FIELD_NUMBER: _ClassVar[int]
    ORDERS_FIELD_NUMBER: _ClassVar[int]
    compute_unit_price: str
    maker: str
    orders: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, maker: _Optional[str] = ..., orders: _Optional[_Iterable[str]] = ..., compute_unit_price: _Optional[str] = ...) -> None: ...

class CancelOrdersResponse(_message.Message):
    __slots__ = ["request_id", "transactions"]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    TRANSACTIONS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    transactions: _containers.RepeatedScalarFieldContainer[bytes]
    def __init__(self, transactions: _Optional[_Iterable[bytes]] = ..., request_id: _Optional[str] = ...) -> None: ...

class CreateOrderParams(_message.Message):
    __slots__ = ["expired_at", "fee_bps", "making_amount", "slippage_bps", "taking_amount"]
    EXPIRED_AT_FIELD_NUMBER: _ClassVar[int]
    FEE_BPS_FIELD_NUMBER: _ClassVar[int]
    MAKING_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    SLIPPAGE_BPS_FIELD_NUMBER: _ClassVar[int]
    TAKING_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    expired_at: int
    fee_bps: int
    making_amount: int
    slippage_bps: int
    taking_amount: int
    def __init__(self, making_amount: _Optional[int] = ..., taking_amount: _Optional[int] = ..., expired_at: _Optional[int] = ..., slippage_bps: _Optional[int] = ..., fee_bps: _Optional[int] = ...) -> None: ...

class CreateOrderRequest(_message.Message):
    __slots__ = ["compute_unit_price", "fee_account", "input_mint", "input_token_program", "maker", "output_mint", "output_token_program", "params", "payer", "wrap_and_unwrap_sol"]
    COMPUTE_UNIT_PRICE_FIELD_NUMBER: _ClassVar[int]
    FEE_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    INPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    INPUT_TOKEN_PROGRAM_FIELD_NUMBER: _ClassVar[int]
    MAKER_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_TOKEN_PROGRAM_FIELD_NUMBER: _ClassVar[int]
    PARAMS_FIELD_NUMBER: _ClassVar[int]
    PAYER_FIELD_NUMBER: _ClassVar[int]
    WRAP_AND_UNWRAP_SOL_FIELD_NUMBER: _ClassVar[int]
    compute_unit_price: str
    fee_account: str
    input_mint: str
    input_token_program: str
    maker: str
    output_mint: str
    output_token_program: str
    params: CreateOrderParams
    payer: str
    wrap_and_unwrap_sol: bool
    def __init__(self, input_mint: _Optional[str] = ..., output_mint: _Optional[str] = ..., maker: _Optional[str] = ..., payer: _Optional[str] = ..., params: _Optional[_Union[CreateOrderParams, _Mapping]] = ..., compute_unit_price: _Optional[str] = ..., fee_account: _Optional[str] = ..., wrap_and_unwrap_sol: bool = ..., input_token_program: _Optional[str] = ..., output_token_program: _Optional[str] = ...) -> None: ...

class CreateOrderResponse(_message.Message):
    __slots__ = ["order", "request_id", "transaction"]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    TRANSACTION_FIELD_NUMBER: _ClassVar[int]
    order: str
    request_id: str
    transaction: bytes
    def __init__(self, order: _Optional[str] = ..., transaction: _Optional[bytes] = ..., request_id: _Optional[str] = ...) -> None: ...

class ExecuteRequest(_message.Message):
    __slots__ = ["request_id", "signed_transaction"]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    SIGNED_TRANSACTION_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    signed_transaction: bytes
    def __init__(self, request_id: _Optional[str] = ..., signed_transaction: _Optional[bytes] = ...) -> None: ...

class ExecuteResponse(_message.Message):
    __slots__ = ["code", "error", "signature", "status"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    code: int
    error: str
    signature: str
    status: ExecutionStatus
    def __init__(self, signature: _Optional[str] = ..., status: _Optional[_Union[ExecutionStatus, str]] = ..., code: _Optional[int] = ..., error: _Optional[str] = ...) -> None: ...

class GetTriggerOrdersRequest(_message.Message):
    __slots__ = ["include_failed_tx", "input_mint", "order_status", "output_mint", "page", "user"]
    INCLUDE_FAILED_TX_FIELD_NUMBER: _ClassVar[int]
    INPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    ORDER_STATUS_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    include_failed_tx: bool
    input_mint: str
    order_status: str
    output_mint: str
    page: int
    user: str
    def __init__(self, user: _Optional[str] = ..., order_status: _Optional[str] = ..., page: _Optional[int] = ..., include_failed_tx: bool = ..., input_mint: _Optional[str] = ..., output_mint: _Optional[str] = ...) -> None: ...

class GetTriggerOrdersResponse(_message.Message):
    __slots__ = ["has_more_data", "order_status", "orders", "page", "total_pages", "user"]
    HAS_MORE_DATA_FIELD_NUMBER: _ClassVar[int]
    ORDERS_FIELD_NUMBER: _ClassVar[int]
    ORDER_STATUS_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    TOTAL_PAGES_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    has_more_data: bool
    order_status: str
    orders: _containers.RepeatedCompositeFieldContainer[TriggerOrder]
    page: int
    total_pages: int
    user: str
    def __init__(self, user: _Optional[str] = ..., order_status: _Optional[str] = ..., orders: _Optional[_Iterable[_Union[TriggerOrder, _Mapping]]] = ..., total_pages: _Optional[int] = ..., page: _Optional[int] = ..., has_more_data: bool = ...) -> None: ...

class SnapshotEnd(_message.Message):
    __slots__ = ["count"]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    count: int
    def __init__(self, count: _Optional[int] = ...) -> None: ...

class TriggerOrder(_message.Message):
    __slots__ = ["close_tx", "created_at", "expired_at", "input_mint", "making_amount", "open_tx", "order_key", "output_mint", "program_version", "raw_making_amount", "raw_remaining_making_amount", "raw_remaining_taking_amount", "raw_taking_amount", "remaining_making_amount", "remaining_taking_amount", "slippage_bps", "status", "taking_amount", "trades", "updated_at", "user_pubkey"]
    CLOSE_TX_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    EXPIRED_AT_FIELD_NUMBER: _ClassVar[int]
    INPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    MAKING_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    OPEN_TX_FIELD_NUMBER: _ClassVar[int]
    ORDER_KEY_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    PROGRAM_VERSION_FIELD_NUMBER: _ClassVar[int]
    RAW_MAKING_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    RAW_REMAINING_MAKING_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    RAW_REMAINING_TAKING_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    RAW_TAKING_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    REMAINING_MAKING_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    REMAINING_TAKING_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    SLIPPAGE_BPS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TAKING_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    TRADES_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    USER_PUBKEY_FIELD_NUMBER: _ClassVar[int]
    close_tx: str
    created_at: _timestamp_pb2.Timestamp
    expired_at: _timestamp_pb2.Timestamp
    input_mint: str
    making_amount: str
    open_tx: str
    order_key: str
    output_mint: str
    program_version: str
    raw_making_amount: int
    raw_remaining_making_amount: int
    raw_remaining_taking_amount: int
    raw_taking_amount: int
    remaining_making_amount: str
    remaining_taking_amount: str
    slippage_bps: int
    status: OrderStatus
    taking_amount: str
    trades: _containers.RepeatedCompositeFieldContainer[TriggerTrade]
    updated_at: _timestamp_pb2.Timestamp
    user_pubkey: str
    def __init__(self, user_pubkey: _Optional[str] = ..., order_key: _Optional[str] = ..., input_mint: _Optional[str] = ..., output_mint: _Optional[str] = ..., making_amount: _Optional[str] = ..., taking_amount: _Optional[str] = ..., remaining_making_amount: _Optional[str] = ..., remaining_taking_amount: _Optional[str] = ..., raw_making_amount: _Optional[int] = ..., raw_taking_amount: _Optional[int] = ..., raw_remaining_making_amount: _Optional[int] = ..., raw_remaining_taking_amount: _Optional[int] = ..., slippage_bps: _Optional[int] = ..., expired_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., status: _Optional[_Union[OrderStatus, str]] = ..., open_tx: _Optional[str] = ..., close_tx: _Optional[str] = ..., program_version: _Optional[str] = ..., trades: _Optional[_Iterable[_Union[TriggerTrade, _Mapping]]] = ...) -> None: ...

class TriggerTrade(_message.Message):
    __slots__ = ["action", "confirmed_at", "fee_amount", "fee_mint", "input_amount", "input_mint", "keeper", "order_key", "output_amount", "output_mint", "raw_fee_amount", "raw_input_amount", "raw_output_amount", "tx_id"]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    CONFIRMED_AT_FIELD_NUMBER: _ClassVar[int]
    FEE_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    FEE_MINT_FIELD_NUMBER: _ClassVar[int]
    INPUT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    INPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    KEEPER_FIELD_NUMBER: _ClassVar[int]
    ORDER_KEY_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    RAW_FEE_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    RAW_INPUT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    RAW_OUTPUT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    TX_ID_FIELD_NUMBER: _ClassVar[int]
    action: str
    confirmed_at: _timestamp_pb2.Timestamp
    fee_amount: str
    fee_mint: str
    input_amount: str
    input_mint: str
    keeper: str
    order_key: str
    output_amount: str
    output_mint: str
    raw_fee_amount: int
    raw_input_amount: int
    raw_output_amount: int
    tx_id: str
    def __init__(self, order_key: _Optional[str] = ..., keeper: _Optional[str] = ..., input_mint: _Optional[str] = ..., output_mint: _Optional[str] = ..., input_amount: _Optional[str] = ..., output_amount: _Optional[str] = ..., raw_input_amount: _Optional[int] = ..., raw_output_amount: _Optional[int] = ..., fee_mint: _Optional[str] = ..., fee_amount: _Optional[str] = ..., raw_fee_amount: _Optional[int] = ..., tx_id: _Optional[str] = ..., confirmed_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., action: _Optional[str] = ...) -> None: ...

class WatchTriggerOrdersRequest(_message.Message):
    __slots__ = ["input_mint", "output_mint", "user"]
    INPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    input_mint: str
    output_mint: str
    user: str
    def __init__(self, user: _Optional[str] = ..., input_mint: _Optional[str] = ..., output_mint: _Optional[str] = ...) -> None: ...

class WatchTriggerOrdersResponse(_message.Message):
    __slots__ = ["order", "snapshot_end"]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_END_FIELD_NUMBER: _ClassVar[int]
    order: TriggerOrder
    snapshot_end: SnapshotEnd
    def __init__(self, order: _Optional[_Union[TriggerOrder, _Mapping]] = ..., snapshot_end: _Optional[_Union[SnapshotEnd, _Mapping]] = ...) -> None: ...

class OrderStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ExecutionStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
