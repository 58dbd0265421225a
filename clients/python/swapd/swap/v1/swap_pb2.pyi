from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AccountMeta(_message.Message):
    __slots__ = ["is_signer", "is_writable", "pubkey"]
    IS_SIGNER_FIELD_NUMBER: _ClassVar[int]
    IS_WRITABLE_FIELD_NUMBER: _ClassVar[int]
    PUBKEY_FIELD_NUMBER: _ClassVar[int]
    is_signer: bool
    is_writable: bool
    pubkey: str
    def __init__(self, pubkey: _Optional[str] = ..., is_signer: bool = ..., is_writable: bool = ...) -> None: ...

class AutoSlippage(_message.Message):
    __slots__ = ["max_bps", "min_bps", "pool_move_bps", "price_impact_bps", "slippage_bps", "window_slots"]
    MAX_BPS_FIELD_NUMBER: _ClassVar[int]
    MIN_BPS_FIELD_NUMBER: _ClassVar[int]
    POOL_MOVE_BPS_FIELD_NUMBER: _ClassVar[int]
    PRICE_IMPACT_BPS_FIELD_NUMBER: _ClassVar[int]
    SLIPPAGE_BPS_FIELD_NUMBER: _ClassVar[int]
    WINDOW_SLOTS_FIELD_NUMBER: _ClassVar[int]
    max_bps: int
    min_bps: int
    pool_move_bps: int
    price_impact_bps: int
    slippage_bps: int
    window_slots: int
    def __init__(self, slippage_bps: _Optional[int] = ..., price_impact_bps: _Optional[int] = ..., pool_move_bps: _Optional[int] = ..., window_slots: _Optional[int] = ..., min_bps: _Optional[int] = ..., max_bps: _Optional[int] = ...) -> None: ...

class BlockhashWithMetadata(_message.Message):
    __slots__ = ["blockhash", "fetched_at", "last_valid_block_height"]
    BLOCKHASH_FIELD_NUMBER: _ClassVar[int]
    FETCHED_AT_FIELD_NUMBER: _ClassVar[int]
    LAST_VALID_BLOCK_HEIGHT_FIELD_NUMBER: _ClassVar[int]
    blockhash: str
    fetched_at: _timestamp_pb2.Timestamp
    last_valid_block_height: int
    def __init__(self, blockhash: _Optional[str] = ..., last_valid_block_height: _Optional[int] = ..., fetched_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class BuildRequest(_message.Message):
    __slots__ = ["amount", "auto_slippage", "blockhash_slots_to_expiry", "compute_unit_price_percentile", "destination_token_account", "dexes", "exclude_dexes", "fee_account", "for_jito_bundle", "input_mint", "max_accounts", "mode", "native_destination_account", "output_mint", "payer", "platform_fee_bps", "slippage_bps", "swap_mode", "taker", "tip_amount", "wrap_and_unwrap_sol"]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    AUTO_SLIPPAGE_FIELD_NUMBER: _ClassVar[int]
    BLOCKHASH_SLOTS_TO_EXPIRY_FIELD_NUMBER: _ClassVar[int]
    COMPUTE_UNIT_PRICE_PERCENTILE_FIELD_NUMBER: _ClassVar[int]
    DESTINATION_TOKEN_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    DEXES_FIELD_NUMBER: _ClassVar[int]
    EXCLUDE_DEXES_FIELD_NUMBER: _ClassVar[int]
    FEE_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    FOR_JITO_BUNDLE_FIELD_NUMBER: _ClassVar[int]
    INPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    MAX_ACCOUNTS_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    NATIVE_DESTINATION_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    PAYER_FIELD_NUMBER: _ClassVar[int]
    PLATFORM_FEE_BPS_FIELD_NUMBER: _ClassVar[int]
    SLIPPAGE_BPS_FIELD_NUMBER: _ClassVar[int]
    SWAP_MODE_FIELD_NUMBER: _ClassVar[int]
    TAKER_FIELD_NUMBER: _ClassVar[int]
    TIP_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    WRAP_AND_UNWRAP_SOL_FIELD_NUMBER: _ClassVar[int]
    amount: int
    auto_slippage: bool
    blockhash_slots_to_expiry: int
    compute_unit_price_percentile: str
    destination_token_account: str
    dexes: _containers.RepeatedScalarFieldContainer[str]
    exclude_dexes: _containers.RepeatedScalarFieldContainer[str]
    fee_account: str
    for_jito_bundle: bool
    input_mint: str
    max_accounts: int
    mode: str
    native_destination_account: str
    output_mint: str
    payer: str
    platform_fee_bps: int
    slippage_bps: int
    swap_mode: str
    taker: str
    tip_amount: int
    wrap_and_unwrap_sol: bool
    def __init__(self, input_mint: _Optional[str] = ..., output_mint: _Optional[str] = ..., amount: _Optional[int] = ..., taker: _Optional[str] = ..., slippage_bps: _Optional[int] = ..., dexes: _Optional[_Iterable[str]] = ..., exclude_dexes: _Optional[_Iterable[str]] = ..., max_accounts: _Optional[int] = ..., platform_fee_bps: _Optional[int] = ..., fee_account: _Optional[str] = ..., mode: _Optional[str] = ..., payer: _Optional[str] = ..., swap_mode: _Optional[str] = ..., auto_slippage: bool = ..., wrap_and_unwrap_sol: bool = ..., destination_token_account: _Optional[str] = ..., native_destination_account: _Optional[str] = ..., blockhash_slots_to_expiry: _Optional[int] = ..., tip_amount: _Optional[int] = ..., compute_unit_price_percentile: _Optional[str] = ..., for_jito_bundle: bool = ...) -> None: ...

class BuildResponse(_message.Message):
    __slots__ = ["addresses_by_lookup_table_address", "auto_slippage", "blockhash_with_metadata", "cleanup_instruction", "compute_budget_instructions", "context_slot", "in_amount", "input_mint", "other_amount_threshold", "other_instructions", "out_amount", "output_mint", "platform_fee", "price_impact_pct", "route_plan", "setup_instructions", "slippage_bps", "swap_instruction", "swap_mode", "tip_instruction"]
    class AddressesByLookupTableAddressEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: LookupTableAddresses
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[LookupTableAddresses, _Mapping]] = ...) -> None: ...
    ADDRESSES_BY_LOOKUP_TABLE_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    AUTO_SLIPPAGE_FIELD_NUMBER: _ClassVar[int]
    BLOCKHASH_WITH_METADATA_FIELD_NUMBER: _ClassVar[int]
    CLEANUP_INSTRUCTION_FIELD_NUMBER: _ClassVar[int]
    COMPUTE_BUDGET_INSTRUCTIONS_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_SLOT_FIELD_NUMBER: _ClassVar[int]
    INPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    IN_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    OTHER_AMOUNT_THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    OTHER_INSTRUCTIONS_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    OUT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    PLATFORM_FEE_FIELD_NUMBER: _ClassVar[int]
    PRICE_IMPACT_PCT_FIELD_NUMBER: _ClassVar[int]
    ROUTE_PLAN_FIELD_NUMBER: _ClassVar[int]
    SETUP_INSTRUCTIONS_FIELD_NUMBER: _ClassVar[int]
    SLIPPAGE_BPS_FIELD_NUMBER: _ClassVar[int]
    SWAP_INSTRUCTION_FIELD_NUMBER: _ClassVar[int]
    SWAP_MODE_FIELD_NUMBER: _ClassVar[int]
    TIP_INSTRUCTION_FIELD_NUMBER: _ClassVar[int]
    addresses_by_lookup_table_address: _containers.MessageMap[str, LookupTableAddresses]
    auto_slippage: AutoSlippage
    blockhash_with_metadata: BlockhashWithMetadata
    cleanup_instruction: Instruction
    compute_budget_instructions: _containers.RepeatedCompositeFieldContainer[Instruction]
    context_slot: int
    in_amount: int
    input_mint: str
    other_amount_threshold: int
    other_instructions: _containers.RepeatedCompositeFieldContainer[Instruction]
    out_amount: int
    output_mint: str
    platform_fee: PlatformFee
    price_impact_pct: str
    route_plan: _containers.RepeatedCompositeFieldContainer[RoutePlanStep]
    setup_instructions: _containers.RepeatedCompositeFieldContainer[Instruction]
    slippage_bps: int
    swap_instruction: Instruction
    swap_mode: str
    tip_instruction: Instruction
    def __init__(self, input_mint: _Optional[str] = ..., output_mint: _Optional[str] = ..., in_amount: _Optional[int] = ..., out_amount: _Optional[int] = ..., other_amount_threshold: _Optional[int] = ..., swap_mode: _Optional[str] = ..., slippage_bps: _Optional[int] = ..., route_plan: _Optional[_Iterable[_Union[RoutePlanStep, _Mapping]]] = ..., compute_budget_instructions: _Optional[_Iterable[_Union[Instruction, _Mapping]]] = ..., setup_instructions: _Optional[_Iterable[_Union[Instruction, _Mapping]]] = ..., swap_instruction: _Optional[_Union[Instruction, _Mapping]] = ..., cleanup_instruction: _Optional[_Union[Instruction, _Mapping]] = ..., other_instructions: _Optional[_Iterable[_Union[Instruction, _Mapping]]] = ..., tip_instruction: _Optional[_Union[Instruction, _Mapping]] = ..., addresses_by_lookup_table_address: _Optional[_Mapping[str, LookupTableAddresses]] = ..., blockhash_with_metadata: _Optional[_Union[BlockhashWithMetadata, _Mapping]] = ..., price_impact_pct: _Optional[str] = ..., context_slot: _Optional[int] = ..., platform_fee: _Optional[_Union[PlatformFee, _Mapping]] = ..., auto_slippage: _Optional[_Union[AutoSlippage, _Mapping]] = ...) -> None: ...

class ComputeBudgetPrioritization(_message.Message):
    __slots__ = ["estimated_micro_lamports", "micro_lamports"]
    ESTIMATED_MICRO_LAMPORTS_FIELD_NUMBER: _ClassVar[int]
    MICRO_LAMPORTS_FIELD_NUMBER: _ClassVar[int]
    estimated_micro_lamports: int
    micro_lamports: int
    def __init__(self, micro_lamports: _Optional[int] = ..., estimated_micro_lamports: _Optional[int] = ...) -> None: ...

class DynamicSlippageReport(_message.Message):
    __slots__ = ["amplification_ratio", "category_name", "heuristic_max_slippage_bps", "other_amount", "simulated_incurred_slippage_bps", "slippage_bps"]
    AMPLIFICATION_RATIO_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_NAME_FIELD_NUMBER: _ClassVar[int]
    HEURISTIC_MAX_SLIPPAGE_BPS_FIELD_NUMBER: _ClassVar[int]
    OTHER_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    SIMULATED_INCURRED_SLIPPAGE_BPS_FIELD_NUMBER: _ClassVar[int]
    SLIPPAGE_BPS_FIELD_NUMBER: _ClassVar[int]
    amplification_ratio: str
    category_name: str
    heuristic_max_slippage_bps: int
    other_amount: int
    simulated_incurred_slippage_bps: int
    slippage_bps: int
    def __init__(self, slippage_bps: _Optional[int] = ..., other_amount: _Optional[int] = ..., simulated_incurred_slippage_bps: _Optional[int] = ..., amplification_ratio: _Optional[str] = ..., category_name: _Optional[str] = ..., heuristic_max_slippage_bps: _Optional[int] = ...) -> None: ...

class ExecuteAndWatchRequest(_message.Message):
    __slots__ = ["last_valid_block_height", "request_id", "signed_transaction"]
    LAST_VALID_BLOCK_HEIGHT_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    SIGNED_TRANSACTION_FIELD_NUMBER: _ClassVar[int]
    last_valid_block_height: int
    request_id: str
    signed_transaction: bytes
    def __init__(self, signed_transaction: _Optional[bytes] = ..., request_id: _Optional[str] = ..., last_valid_block_height: _Optional[int] = ...) -> None: ...

class ExecuteAndWatchResponse(_message.Message):
    __slots__ = ["result", "signature", "stage"]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    STAGE_FIELD_NUMBER: _ClassVar[int]
    result: ExecuteResponse
    signature: str
    stage: str
    def __init__(self, stage: _Optional[str] = ..., signature: _Optional[str] = ..., result: _Optional[_Union[ExecuteResponse, _Mapping]] = ...) -> None: ...

class ExecuteRequest(_message.Message):
    __slots__ = ["last_valid_block_height", "request_id", "signed_transaction"]
    LAST_VALID_BLOCK_HEIGHT_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    SIGNED_TRANSACTION_FIELD_NUMBER: _ClassVar[int]
    last_valid_block_height: int
    request_id: str
    signed_transaction: bytes
    def __init__(self, signed_transaction: _Optional[bytes] = ..., request_id: _Optional[str] = ..., last_valid_block_height: _Optional[int] = ...) -> None: ...

class ExecuteResponse(_message.Message):
    __slots__ = ["code", "error", "input_amount_result", "output_amount_result", "signature", "slot", "status", "swap_events", "total_input_amount", "total_output_amount"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    INPUT_AMOUNT_RESULT_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_AMOUNT_RESULT_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    SWAP_EVENTS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_INPUT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    TOTAL_OUTPUT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    code: int
    error: str
    input_amount_result: int
    output_amount_result: int
    signature: str
    slot: int
    status: str
    swap_events: _containers.RepeatedCompositeFieldContainer[SwapEvent]
    total_input_amount: int
    total_output_amount: int
    def __init__(self, status: _Optional[str] = ..., signature: _Optional[str] = ..., slot: _Optional[int] = ..., error: _Optional[str] = ..., code: _Optional[int] = ..., input_amount_result: _Optional[int] = ..., output_amount_result: _Optional[int] = ..., swap_events: _Optional[_Iterable[_Union[SwapEvent, _Mapping]]] = ..., total_input_amount: _Optional[int] = ..., total_output_amount: _Optional[int] = ...) -> None: ...

class Instruction(_message.Message):
    __slots__ = ["accounts", "data", "program_id"]
    ACCOUNTS_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    PROGRAM_ID_FIELD_NUMBER: _ClassVar[int]
    accounts: _containers.RepeatedCompositeFieldContainer[AccountMeta]
    data: bytes
    program_id: str
    def __init__(self, program_id: _Optional[str] = ..., accounts: _Optional[_Iterable[_Union[AccountMeta, _Mapping]]] = ..., data: _Optional[bytes] = ...) -> None: ...

class LookupTableAddresses(_message.Message):
    __slots__ = ["addresses"]
    ADDRESSES_FIELD_NUMBER: _ClassVar[int]
    addresses: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, addresses: _Optional[_Iterable[str]] = ...) -> None: ...

class MarketsRequest(_message.Message):
    __slots__ = ["address", "addresses", "pubkey"]
    ADDRESSES_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_FIELD_NUMBER: _ClassVar[int]
    PUBKEY_FIELD_NUMBER: _ClassVar[int]
    address: str
    addresses: _containers.RepeatedScalarFieldContainer[str]
    pubkey: str
    def __init__(self, address: _Optional[str] = ..., addresses: _Optional[_Iterable[str]] = ..., pubkey: _Optional[str] = ...) -> None: ...

class OrderRequest(_message.Message):
    __slots__ = ["amount", "broadcast_fee_type", "exclude_dexes", "exclude_routers", "input_mint", "jito_tip_lamports", "max_lamports", "output_mint", "payer", "priority_fee_lamports", "priority_level", "receiver", "referral_account", "referral_fee", "slippage_bps", "swap_mode", "taker"]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    BROADCAST_FEE_TYPE_FIELD_NUMBER: _ClassVar[int]
    EXCLUDE_DEXES_FIELD_NUMBER: _ClassVar[int]
    EXCLUDE_ROUTERS_FIELD_NUMBER: _ClassVar[int]
    INPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    JITO_TIP_LAMPORTS_FIELD_NUMBER: _ClassVar[int]
    MAX_LAMPORTS_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    PAYER_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FEE_LAMPORTS_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_LEVEL_FIELD_NUMBER: _ClassVar[int]
    RECEIVER_FIELD_NUMBER: _ClassVar[int]
    REFERRAL_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    REFERRAL_FEE_FIELD_NUMBER: _ClassVar[int]
    SLIPPAGE_BPS_FIELD_NUMBER: _ClassVar[int]
    SWAP_MODE_FIELD_NUMBER: _ClassVar[int]
    TAKER_FIELD_NUMBER: _ClassVar[int]
    amount: int
    broadcast_fee_type: str
    exclude_dexes: _containers.RepeatedScalarFieldContainer[str]
    exclude_routers: _containers.RepeatedScalarFieldContainer[str]
    input_mint: str
    jito_tip_lamports: int
    max_lamports: int
    output_mint: str
    payer: str
    priority_fee_lamports: int
    priority_level: str
    receiver: str
    referral_account: str
    referral_fee: int
    slippage_bps: int
    swap_mode: str
    taker: str
    def __init__(self, input_mint: _Optional[str] = ..., output_mint: _Optional[str] = ..., amount: _Optional[int] = ..., taker: _Optional[str] = ..., slippage_bps: _Optional[int] = ..., exclude_dexes: _Optional[_Iterable[str]] = ..., priority_fee_lamports: _Optional[int] = ..., priority_level: _Optional[str] = ..., max_lamports: _Optional[int] = ..., payer: _Optional[str] = ..., swap_mode: _Optional[str] = ..., receiver: _Optional[str] = ..., referral_account: _Optional[str] = ..., referral_fee: _Optional[int] = ..., jito_tip_lamports: _Optional[int] = ..., broadcast_fee_type: _Optional[str] = ..., exclude_routers: _Optional[_Iterable[str]] = ...) -> None: ...

class OrderResponse(_message.Message):
    __slots__ = ["auto_slippage", "context_slot", "expire_at", "fee_bps", "fee_mint", "gasless", "in_amount", "input_mint", "last_valid_block_height", "mode", "other_amount_threshold", "out_amount", "output_mint", "platform_fee", "price_impact_pct", "prioritization_fee_lamports", "prioritization_fee_payer", "referral_account", "rent_fee_lamports", "rent_fee_payer", "request_id", "route_plan", "router", "signature_fee_lamports", "signature_fee_payer", "slippage_bps", "swap_mode", "swap_type", "taker", "total_time", "transaction"]
    AUTO_SLIPPAGE_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_SLOT_FIELD_NUMBER: _ClassVar[int]
    EXPIRE_AT_FIELD_NUMBER: _ClassVar[int]
    FEE_BPS_FIELD_NUMBER: _ClassVar[int]
    FEE_MINT_FIELD_NUMBER: _ClassVar[int]
    GASLESS_FIELD_NUMBER: _ClassVar[int]
    INPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    IN_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    LAST_VALID_BLOCK_HEIGHT_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    OTHER_AMOUNT_THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    OUT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    PLATFORM_FEE_FIELD_NUMBER: _ClassVar[int]
    PRICE_IMPACT_PCT_FIELD_NUMBER: _ClassVar[int]
    PRIORITIZATION_FEE_LAMPORTS_FIELD_NUMBER: _ClassVar[int]
    PRIORITIZATION_FEE_PAYER_FIELD_NUMBER: _ClassVar[int]
    REFERRAL_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    RENT_FEE_LAMPORTS_FIELD_NUMBER: _ClassVar[int]
    RENT_FEE_PAYER_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ROUTER_FIELD_NUMBER: _ClassVar[int]
    ROUTE_PLAN_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FEE_LAMPORTS_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FEE_PAYER_FIELD_NUMBER: _ClassVar[int]
    SLIPPAGE_BPS_FIELD_NUMBER: _ClassVar[int]
    SWAP_MODE_FIELD_NUMBER: _ClassVar[int]
    SWAP_TYPE_FIELD_NUMBER: _ClassVar[int]
    TAKER_FIELD_NUMBER: _ClassVar[int]
    TOTAL_TIME_FIELD_NUMBER: _ClassVar[int]
    TRANSACTION_FIELD_NUMBER: _ClassVar[int]
    auto_slippage: AutoSlippage
    context_slot: int
    expire_at: _timestamp_pb2.Timestamp
    fee_bps: int
    fee_mint: str
    gasless: bool
    in_amount: int
    input_mint: str
    last_valid_block_height: int
    mode: str
    other_amount_threshold: int
    out_amount: int
    output_mint: str
    platform_fee: PlatformFee
    price_impact_pct: str
    prioritization_fee_lamports: int
    prioritization_fee_payer: str
    referral_account: str
    rent_fee_lamports: int
    rent_fee_payer: str
    request_id: str
    route_plan: _containers.RepeatedCompositeFieldContainer[RoutePlanStep]
    router: str
    signature_fee_lamports: int
    signature_fee_payer: str
    slippage_bps: int
    swap_mode: str
    swap_type: str
    taker: str
    total_time: float
    transaction: bytes
    def __init__(self, mode: _Optional[str] = ..., input_mint: _Optional[str] = ..., output_mint: _Optional[str] = ..., in_amount: _Optional[int] = ..., out_amount: _Optional[int] = ..., other_amount_threshold: _Optional[int] = ..., swap_mode: _Optional[str] = ..., slippage_bps: _Optional[int] = ..., price_impact_pct: _Optional[str] = ..., route_plan: _Optional[_Iterable[_Union[RoutePlanStep, _Mapping]]] = ..., fee_bps: _Optional[int] = ..., signature_fee_lamports: _Optional[int] = ..., prioritization_fee_lamports: _Optional[int] = ..., rent_fee_lamports: _Optional[int] = ..., swap_type: _Optional[str] = ..., router: _Optional[str] = ..., transaction: _Optional[bytes] = ..., last_valid_block_height: _Optional[int] = ..., gasless: bool = ..., request_id: _Optional[str] = ..., total_time: _Optional[float] = ..., taker: _Optional[str] = ..., expire_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., context_slot: _Optional[int] = ..., platform_fee: _Optional[_Union[PlatformFee, _Mapping]] = ..., fee_mint: _Optional[str] = ..., referral_account: _Optional[str] = ..., auto_slippage: _Optional[_Union[AutoSlippage, _Mapping]] = ..., signature_fee_payer: _Optional[str] = ..., prioritization_fee_payer: _Optional[str] = ..., rent_fee_payer: _Optional[str] = ...) -> None: ...

class PercentileFee(_message.Message):
    __slots__ = ["level", "micro_lamports", "percentile_bps"]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    MICRO_LAMPORTS_FIELD_NUMBER: _ClassVar[int]
    PERCENTILE_BPS_FIELD_NUMBER: _ClassVar[int]
    level: str
    micro_lamports: int
    percentile_bps: int
    def __init__(self, percentile_bps: _Optional[int] = ..., level: _Optional[str] = ..., micro_lamports: _Optional[int] = ...) -> None: ...

class PlatformFee(_message.Message):
    __slots__ = ["amount", "fee_bps"]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    FEE_BPS_FIELD_NUMBER: _ClassVar[int]
    amount: int
    fee_bps: int
    def __init__(self, amount: _Optional[int] = ..., fee_bps: _Optional[int] = ...) -> None: ...

class PrioritizationFeeLamports(_message.Message):
    __slots__ = ["auto", "auto_multiplier", "disabled", "lamports", "priority_level_with_max_lamports", "relay_tip_lamports", "relay_tip_lamports_with_payer"]
    AUTO_FIELD_NUMBER: _ClassVar[int]
    AUTO_MULTIPLIER_FIELD_NUMBER: _ClassVar[int]
    DISABLED_FIELD_NUMBER: _ClassVar[int]
    LAMPORTS_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_LEVEL_WITH_MAX_LAMPORTS_FIELD_NUMBER: _ClassVar[int]
    RELAY_TIP_LAMPORTS_FIELD_NUMBER: _ClassVar[int]
    RELAY_TIP_LAMPORTS_WITH_PAYER_FIELD_NUMBER: _ClassVar[int]
    auto: bool
    auto_multiplier: int
    disabled: bool
    lamports: int
    priority_level_with_max_lamports: PriorityLevelWithMaxLamports
    relay_tip_lamports: int
    relay_tip_lamports_with_payer: RelayTipLamportsWithPayer
    def __init__(self, lamports: _Optional[int] = ..., priority_level_with_max_lamports: _Optional[_Union[PriorityLevelWithMaxLamports, _Mapping]] = ..., relay_tip_lamports: _Optional[int] = ..., relay_tip_lamports_with_payer: _Optional[_Union[RelayTipLamportsWithPayer, _Mapping]] = ..., auto: bool = ..., auto_multiplier: _Optional[int] = ..., disabled: bool = ...) -> None: ...

class PrioritizationType(_message.Message):
    __slots__ = ["compute_budget", "relay_tip"]
    COMPUTE_BUDGET_FIELD_NUMBER: _ClassVar[int]
    RELAY_TIP_FIELD_NUMBER: _ClassVar[int]
    compute_budget: ComputeBudgetPrioritization
    relay_tip: RelayTipPrioritization
    def __init__(self, compute_budget: _Optional[_Union[ComputeBudgetPrioritization, _Mapping]] = ..., relay_tip: _Optional[_Union[RelayTipPrioritization, _Mapping]] = ...) -> None: ...

class PriorityFeesRequest(_message.Message):
    __slots__ = ["accounts"]
    ACCOUNTS_FIELD_NUMBER: _ClassVar[int]
    accounts: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, accounts: _Optional[_Iterable[str]] = ...) -> None: ...

class PriorityFeesResponse(_message.Message):
    __slots__ = ["for_accounts", "percentiles", "read_at", "sample_count"]
    FOR_ACCOUNTS_FIELD_NUMBER: _ClassVar[int]
    PERCENTILES_FIELD_NUMBER: _ClassVar[int]
    READ_AT_FIELD_NUMBER: _ClassVar[int]
    SAMPLE_COUNT_FIELD_NUMBER: _ClassVar[int]
    for_accounts: bool
    percentiles: _containers.RepeatedCompositeFieldContainer[PercentileFee]
    read_at: _timestamp_pb2.Timestamp
    sample_count: int
    def __init__(self, percentiles: _Optional[_Iterable[_Union[PercentileFee, _Mapping]]] = ..., sample_count: _Optional[int] = ..., read_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., for_accounts: bool = ...) -> None: ...

class PriorityLevelWithMaxLamports(_message.Message):
    __slots__ = ["max_lamports", "priority_level"]
    GLOBAL_FIELD_NUMBER: _ClassVar[int]
    MAX_LAMPORTS_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_LEVEL_FIELD_NUMBER: _ClassVar[int]
    max_lamports: int
    priority_level: str
    def __init__(self, priority_level: _Optional[str] = ..., max_lamports: _Optional[int] = ..., **kwargs) -> None: ...

class ProgramIdToLabelRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class ProgramIdToLabelResponse(_message.Message):
    __slots__ = ["labels"]
    class LabelsEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    LABELS_FIELD_NUMBER: _ClassVar[int]
    labels: _containers.ScalarMap[str, str]
    def __init__(self, labels: _Optional[_Mapping[str, str]] = ...) -> None: ...

class QuoteRequest(_message.Message):
    __slots__ = ["amount", "as_legacy_transaction", "dexes", "exclude_dexes", "input_mint", "max_accounts", "only_direct_routes", "output_mint", "platform_fee_bps", "restrict_intermediate_tokens", "slippage_bps", "swap_mode"]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    AS_LEGACY_TRANSACTION_FIELD_NUMBER: _ClassVar[int]
    DEXES_FIELD_NUMBER: _ClassVar[int]
    EXCLUDE_DEXES_FIELD_NUMBER: _ClassVar[int]
    INPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    MAX_ACCOUNTS_FIELD_NUMBER: _ClassVar[int]
    ONLY_DIRECT_ROUTES_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    PLATFORM_FEE_BPS_FIELD_NUMBER: _ClassVar[int]
    RESTRICT_INTERMEDIATE_TOKENS_FIELD_NUMBER: _ClassVar[int]
    SLIPPAGE_BPS_FIELD_NUMBER: _ClassVar[int]
    SWAP_MODE_FIELD_NUMBER: _ClassVar[int]
    amount: int
    as_legacy_transaction: bool
    dexes: _containers.RepeatedScalarFieldContainer[str]
    exclude_dexes: _containers.RepeatedScalarFieldContainer[str]
    input_mint: str
    max_accounts: int
    only_direct_routes: bool
    output_mint: str
    platform_fee_bps: int
    restrict_intermediate_tokens: bool
    slippage_bps: int
    swap_mode: str
    def __init__(self, input_mint: _Optional[str] = ..., output_mint: _Optional[str] = ..., amount: _Optional[int] = ..., slippage_bps: _Optional[int] = ..., swap_mode: _Optional[str] = ..., dexes: _Optional[_Iterable[str]] = ..., exclude_dexes: _Optional[_Iterable[str]] = ..., restrict_intermediate_tokens: bool = ..., only_direct_routes: bool = ..., as_legacy_transaction: bool = ..., platform_fee_bps: _Optional[int] = ..., max_accounts: _Optional[int] = ...) -> None: ...

class QuoteResponse(_message.Message):
    __slots__ = ["context_slot", "in_amount", "input_mint", "other_amount_threshold", "out_amount", "output_mint", "platform_fee", "price_impact_pct", "route_plan", "slippage_bps", "swap_mode", "swap_usd_value", "time_taken"]
    CONTEXT_SLOT_FIELD_NUMBER: _ClassVar[int]
    INPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    IN_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    OTHER_AMOUNT_THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    OUT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    PLATFORM_FEE_FIELD_NUMBER: _ClassVar[int]
    PRICE_IMPACT_PCT_FIELD_NUMBER: _ClassVar[int]
    ROUTE_PLAN_FIELD_NUMBER: _ClassVar[int]
    SLIPPAGE_BPS_FIELD_NUMBER: _ClassVar[int]
    SWAP_MODE_FIELD_NUMBER: _ClassVar[int]
    SWAP_USD_VALUE_FIELD_NUMBER: _ClassVar[int]
    TIME_TAKEN_FIELD_NUMBER: _ClassVar[int]
    context_slot: int
    in_amount: int
    input_mint: str
    other_amount_threshold: int
    out_amount: int
    output_mint: str
    platform_fee: PlatformFee
    price_impact_pct: str
    route_plan: _containers.RepeatedCompositeFieldContainer[RoutePlanStep]
    slippage_bps: int
    swap_mode: str
    swap_usd_value: str
    time_taken: float
    def __init__(self, input_mint: _Optional[str] = ..., in_amount: _Optional[int] = ..., output_mint: _Optional[str] = ..., out_amount: _Optional[int] = ..., other_amount_threshold: _Optional[int] = ..., swap_mode: _Optional[str] = ..., slippage_bps: _Optional[int] = ..., platform_fee: _Optional[_Union[PlatformFee, _Mapping]] = ..., price_impact_pct: _Optional[str] = ..., route_plan: _Optional[_Iterable[_Union[RoutePlanStep, _Mapping]]] = ..., context_slot: _Optional[int] = ..., time_taken: _Optional[float] = ..., swap_usd_value: _Optional[str] = ...) -> None: ...

class RelayTipLamportsWithPayer(_message.Message):
    __slots__ = ["lamports", "payer"]
    LAMPORTS_FIELD_NUMBER: _ClassVar[int]
    PAYER_FIELD_NUMBER: _ClassVar[int]
    lamports: int
    payer: str
    def __init__(self, lamports: _Optional[int] = ..., payer: _Optional[str] = ...) -> None: ...

class RelayTipPrioritization(_message.Message):
    __slots__ = ["lamports"]
    LAMPORTS_FIELD_NUMBER: _ClassVar[int]
    lamports: int
    def __init__(self, lamports: _Optional[int] = ...) -> None: ...

class RoutePlanStep(_message.Message):
    __slots__ = ["bps", "percent", "swap_info"]
    BPS_FIELD_NUMBER: _ClassVar[int]
    PERCENT_FIELD_NUMBER: _ClassVar[int]
    SWAP_INFO_FIELD_NUMBER: _ClassVar[int]
    bps: int
    percent: int
    swap_info: SwapInfo
    def __init__(self, swap_info: _Optional[_Union[SwapInfo, _Mapping]] = ..., percent: _Optional[int] = ..., bps: _Optional[int] = ...) -> None: ...

class SimulationError(_message.Message):
    __slots__ = ["error", "error_code"]
    ERROR_CODE_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    error: str
    error_code: str
    def __init__(self, error_code: _Optional[str] = ..., error: _Optional[str] = ...) -> None: ...

class SwapEvent(_message.Message):
    __slots__ = ["input_amount", "input_mint", "output_amount", "output_mint"]
    INPUT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    INPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    input_amount: int
    input_mint: str
    output_amount: int
    output_mint: str
    def __init__(self, input_mint: _Optional[str] = ..., input_amount: _Optional[int] = ..., output_mint: _Optional[str] = ..., output_amount: _Optional[int] = ...) -> None: ...

class SwapInfo(_message.Message):
    __slots__ = ["amm_key", "fee_amount", "fee_mint", "in_amount", "input_mint", "label", "out_amount", "output_mint"]
    AMM_KEY_FIELD_NUMBER: _ClassVar[int]
    FEE_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    FEE_MINT_FIELD_NUMBER: _ClassVar[int]
    INPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    IN_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_MINT_FIELD_NUMBER: _ClassVar[int]
    OUT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    amm_key: str
    fee_amount: int
    fee_mint: str
    in_amount: int
    input_mint: str
    label: str
    out_amount: int
    output_mint: str
    def __init__(self, amm_key: _Optional[str] = ..., label: _Optional[str] = ..., input_mint: _Optional[str] = ..., output_mint: _Optional[str] = ..., in_amount: _Optional[int] = ..., out_amount: _Optional[int] = ..., fee_amount: _Optional[int] = ..., fee_mint: _Optional[str] = ...) -> None: ...

class SwapInstructionsRequest(_message.Message):
    __slots__ = ["as_legacy_transaction", "blockhash_slots_to_expiry", "compute_unit_price_micro_lamports", "destination_token_account", "dynamic_compute_unit_limit", "dynamic_slippage", "fee_account", "payer", "prioritization_fee_lamports", "quote_response", "skip_user_accounts_rpc_calls", "tracking_account", "use_shared_accounts", "use_token_ledger", "user_public_key", "wrap_and_unwrap_sol"]
    AS_LEGACY_TRANSACTION_FIELD_NUMBER: _ClassVar[int]
    BLOCKHASH_SLOTS_TO_EXPIRY_FIELD_NUMBER: _ClassVar[int]
    COMPUTE_UNIT_PRICE_MICRO_LAMPORTS_FIELD_NUMBER: _ClassVar[int]
    DESTINATION_TOKEN_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    DYNAMIC_COMPUTE_UNIT_LIMIT_FIELD_NUMBER: _ClassVar[int]
    DYNAMIC_SLIPPAGE_FIELD_NUMBER: _ClassVar[int]
    FEE_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    PAYER_FIELD_NUMBER: _ClassVar[int]
    PRIORITIZATION_FEE_LAMPORTS_FIELD_NUMBER: _ClassVar[int]
    QUOTE_RESPONSE_FIELD_NUMBER: _ClassVar[int]
    SKIP_USER_ACCOUNTS_RPC_CALLS_FIELD_NUMBER: _ClassVar[int]
    TRACKING_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    USER_PUBLIC_KEY_FIELD_NUMBER: _ClassVar[int]
    USE_SHARED_ACCOUNTS_FIELD_NUMBER: _ClassVar[int]
    USE_TOKEN_LEDGER_FIELD_NUMBER: _ClassVar[int]
    WRAP_AND_UNWRAP_SOL_FIELD_NUMBER: _ClassVar[int]
    as_legacy_transaction: bool
    blockhash_slots_to_expiry: int
    compute_unit_price_micro_lamports: int
    destination_token_account: str
    dynamic_compute_unit_limit: bool
    dynamic_slippage: bool
    fee_account: str
    payer: str
    prioritization_fee_lamports: PrioritizationFeeLamports
    quote_response: QuoteResponse
    skip_user_accounts_rpc_calls: bool
    tracking_account: str
    use_shared_accounts: bool
    use_token_ledger: bool
    user_public_key: str
    wrap_and_unwrap_sol: bool
    def __init__(self, user_public_key: _Optional[str] = ..., quote_response: _Optional[_Union[QuoteResponse, _Mapping]] = ..., payer: _Optional[str] = ..., wrap_and_unwrap_sol: bool = ..., use_shared_accounts: bool = ..., fee_account: _Optional[str] = ..., tracking_account: _Optional[str] = ..., prioritization_fee_lamports: _Optional[_Union[PrioritizationFeeLamports, _Mapping]] = ..., as_legacy_transaction: bool = ..., destination_token_account: _Optional[str] = ..., dynamic_compute_unit_limit: bool = ..., skip_user_accounts_rpc_calls: bool = ..., dynamic_slippage: bool = ..., compute_unit_price_micro_lamports: _Optional[int] = ..., blockhash_slots_to_expiry: _Optional[int] = ..., use_token_ledger: bool = ...) -> None: ...

class SwapInstructionsResponse(_message.Message):
    __slots__ = ["address_lookup_table_addresses", "blockhash_with_metadata", "cleanup_instruction", "compute_budget_instructions", "compute_unit_limit", "context_slot", "dynamic_slippage_report", "other_instructions", "prioritization_fee_lamports", "prioritization_type", "setup_instructions", "simulation_error", "simulation_slot", "swap_instruction", "token_ledger_instruction"]
    ADDRESS_LOOKUP_TABLE_ADDRESSES_FIELD_NUMBER: _ClassVar[int]
    BLOCKHASH_WITH_METADATA_FIELD_NUMBER: _ClassVar[int]
    CLEANUP_INSTRUCTION_FIELD_NUMBER: _ClassVar[int]
    COMPUTE_BUDGET_INSTRUCTIONS_FIELD_NUMBER: _ClassVar[int]
    COMPUTE_UNIT_LIMIT_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_SLOT_FIELD_NUMBER: _ClassVar[int]
    DYNAMIC_SLIPPAGE_REPORT_FIELD_NUMBER: _ClassVar[int]
    OTHER_INSTRUCTIONS_FIELD_NUMBER: _ClassVar[int]
    PRIORITIZATION_FEE_LAMPORTS_FIELD_NUMBER: _ClassVar[int]
    PRIORITIZATION_TYPE_FIELD_NUMBER: _ClassVar[int]
    SETUP_INSTRUCTIONS_FIELD_NUMBER: _ClassVar[int]
    SIMULATION_ERROR_FIELD_NUMBER: _ClassVar[int]
    SIMULATION_SLOT_FIELD_NUMBER: _ClassVar[int]
    SWAP_INSTRUCTION_FIELD_NUMBER: _ClassVar[int]
    TOKEN_LEDGER_INSTRUCTION_FIELD_NUMBER: _ClassVar[int]
    address_lookup_table_addresses: _containers.RepeatedScalarFieldContainer[str]
    blockhash_with_metadata: BlockhashWithMetadata
    cleanup_instruction: Instruction
    compute_budget_instructions: _containers.RepeatedCompositeFieldContainer[Instruction]
    compute_unit_limit: int
    context_slot: int
    dynamic_slippage_report: DynamicSlippageReport
    other_instructions: _containers.RepeatedCompositeFieldContainer[Instruction]
    prioritization_fee_lamports: int
    prioritization_type: PrioritizationType
    setup_instructions: _containers.RepeatedCompositeFieldContainer[Instruction]
    simulation_error: SimulationError
    simulation_slot: int
    swap_instruction: Instruction
    token_ledger_instruction: Instruction
    def __init__(self, token_ledger_instruction: _Optional[_Union[Instruction, _Mapping]] = ..., compute_budget_instructions: _Optional[_Iterable[_Union[Instruction, _Mapping]]] = ..., setup_instructions: _Optional[_Iterable[_Union[Instruction, _Mapping]]] = ..., swap_instruction: _Optional[_Union[Instruction, _Mapping]] = ..., cleanup_instruction: _Optional[_Union[Instruction, _Mapping]] = ..., other_instructions: _Optional[_Iterable[_Union[Instruction, _Mapping]]] = ..., address_lookup_table_addresses: _Optional[_Iterable[str]] = ..., prioritization_fee_lamports: _Optional[int] = ..., compute_unit_limit: _Optional[int] = ..., prioritization_type: _Optional[_Union[PrioritizationType, _Mapping]] = ..., simulation_slot: _Optional[int] = ..., simulation_error: _Optional[_Union[SimulationError, _Mapping]] = ..., blockhash_with_metadata: _Optional[_Union[BlockhashWithMetadata, _Mapping]] = ..., dynamic_slippage_report: _Optional[_Union[DynamicSlippageReport, _Mapping]] = ..., context_slot: _Optional[int] = ...) -> None: ...

class SwapRequest(_message.Message):
    __slots__ = ["as_legacy_transaction", "blockhash_slots_to_expiry", "compute_unit_price_micro_lamports", "destination_token_account", "dynamic_compute_unit_limit", "dynamic_slippage", "fee_account", "payer", "prioritization_fee_lamports", "quote_response", "skip_user_accounts_rpc_calls", "tracking_account", "use_shared_accounts", "use_token_ledger", "user_public_key", "wrap_and_unwrap_sol"]
    AS_LEGACY_TRANSACTION_FIELD_NUMBER: _ClassVar[int]
    BLOCKHASH_SLOTS_TO_EXPIRY_FIELD_NUMBER: _ClassVar[int]
    COMPUTE_UNIT_PRICE_MICRO_LAMPORTS_FIELD_NUMBER: _ClassVar[int]
    DESTINATION_TOKEN_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    DYNAMIC_COMPUTE_UNIT_LIMIT_FIELD_NUMBER: _ClassVar[int]
    DYNAMIC_SLIPPAGE_FIELD_NUMBER: _ClassVar[int]
    FEE_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    PAYER_FIELD_NUMBER: _ClassVar[int]
    PRIORITIZATION_FEE_LAMPORTS_FIELD_NUMBER: _ClassVar[int]
    QUOTE_RESPONSE_FIELD_NUMBER: _ClassVar[int]
    SKIP_USER_ACCOUNTS_RPC_CALLS_FIELD_NUMBER: _ClassVar[int]
    TRACKING_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    USER_PUBLIC_KEY_FIELD_NUMBER: _ClassVar[int]
    USE_SHARED_ACCOUNTS_FIELD_NUMBER: _ClassVar[int]
    USE_TOKEN_LEDGER_FIELD_NUMBER: _ClassVar[int]
    WRAP_AND_UNWRAP_SOL_FIELD_NUMBER: _ClassVar[int]
    as_legacy_transaction: bool
    blockhash_slots_to_expiry: int
    compute_unit_price_micro_lamports: int
    destination_token_account: str
    dynamic_compute_unit_limit: bool
    dynamic_slippage: bool
    fee_account: str
    payer: str
    prioritization_fee_lamports: PrioritizationFeeLamports
    quote_response: QuoteResponse
    skip_user_accounts_rpc_calls: bool
    tracking_account: str
    use_shared_accounts: bool
    use_token_ledger: bool
    user_public_key: str
    wrap_and_unwrap_sol: bool
    def __init__(self, user_public_key: _Optional[str] = ..., quote_response: _Optional[_Union[QuoteResponse, _Mapping]] = ..., payer: _Optional[str] = ..., wrap_and_unwrap_sol: bool = ..., use_shared_accounts: bool = ..., fee_account: _Optional[str] = ..., tracking_account: _Optional[str] = ..., prioritization_fee_lamports: _Optional[_Union[PrioritizationFeeLamports, _Mapping]] = ..., as_legacy_transaction: bool = ..., destination_token_account: _Optional[str] = ..., dynamic_compute_unit_limit: bool = ..., skip_user_accounts_rpc_calls: bool = ..., dynamic_slippage: bool = ..., compute_unit_price_micro_lamports: _Optional[int] = ..., blockhash_slots_to_expiry: _Optional[int] = ..., use_token_ledger: bool = ...) -> None: ...

class SwapResponse(_message.Message):
    __slots__ = ["address_lookup_table_addresses", "compute_unit_limit", "dynamic_slippage_report", "last_valid_block_height", "prioritization_fee_lamports", "prioritization_type", "simulation_error", "simulation_slot", "swap_transaction", "transaction_size"]
    ADDRESS_LOOKUP_TABLE_ADDRESSES_FIELD_NUMBER: _ClassVar[int]
    COMPUTE_UNIT_LIMIT_FIELD_NUMBER: _ClassVar[int]
    DYNAMIC_SLIPPAGE_REPORT_FIELD_NUMBER: _ClassVar[int]
    LAST_VALID_BLOCK_HEIGHT_FIELD_NUMBER: _ClassVar[int]
    PRIORITIZATION_FEE_LAMPORTS_FIELD_NUMBER: _ClassVar[int]
    PRIORITIZATION_TYPE_FIELD_NUMBER: _ClassVar[int]
    SIMULATION_ERROR_FIELD_NUMBER: _ClassVar[int]
    SIMULATION_SLOT_FIELD_NUMBER: _ClassVar[int]
    SWAP_TRANSACTION_FIELD_NUMBER: _ClassVar[int]
    TRANSACTION_SIZE_FIELD_NUMBER: _ClassVar[int]
    address_lookup_table_addresses: _containers.RepeatedScalarFieldContainer[str]
    compute_unit_limit: int
    dynamic_slippage_report: DynamicSlippageReport
    last_valid_block_height: int
    prioritization_fee_lamports: int
    prioritization_type: PrioritizationType
    simulation_error: SimulationError
    simulation_slot: int
    swap_transaction: bytes
    transaction_size: int
    def __init__(self, swap_transaction: _Optional[bytes] = ..., last_valid_block_height: _Optional[int] = ..., prioritization_fee_lamports: _Optional[int] = ..., compute_unit_limit: _Optional[int] = ..., prioritization_type: _Optional[_Union[PrioritizationType, _Mapping]] = ..., simulation_slot: _Optional[int] = ..., simulation_error: _Optional[_Union[SimulationError, _Mapping]] = ..., dynamic_slippage_report: _Optional[_Union[DynamicSlippageReport, _Mapping]] = ..., address_lookup_table_addresses: _Optional[_Iterable[str]] = ..., transaction_size: _Optional[int] = ...) -> None: ...

class WatchQuoteRequest(_message.Message):
    __slots__ = ["min_interval_ms", "quote"]
    MIN_INTERVAL_MS_FIELD_NUMBER: _ClassVar[int]
    QUOTE_FIELD_NUMBER: _ClassVar[int]
    min_interval_ms: int
    quote: QuoteRequest
    def __init__(self, quote: _Optional[_Union[QuoteRequest, _Mapping]] = ..., min_interval_ms: _Optional[int] = ...) -> None: ...

class WatchQuoteResponse(_message.Message):
    __slots__ = ["error", "quote"]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    QUOTE_FIELD_NUMBER: _ClassVar[int]
    error: str
    quote: QuoteResponse
    def __init__(self, quote: _Optional[_Union[QuoteResponse, _Mapping]] = ..., error: _Optional[str] = ...) -> None: ...
