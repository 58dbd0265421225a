/**
 * The Jupiter v6 program's error names by custom code, 6000 + index (the program's IDL, `errors`),
 * so that a failed swap reads "SlippageToleranceExceeded", not just 6001.
 */
const JUPITER_V6_ERRORS: readonly string[] = [
  "EmptyRoute",
  "SlippageToleranceExceeded",
  "InvalidCalculation",
  "MissingPlatformFeeAccount",
  "InvalidSlippage",
  "NotEnoughPercent",
  "InvalidInputIndex",
  "InvalidOutputIndex",
  "NotEnoughAccountKeys",
  "NonZeroMinimumOutAmountNotSupported",
  "InvalidRoutePlan",
  "InvalidReferralAuthority",
  "LedgerTokenAccountDoesNotMatch",
  "InvalidTokenLedger",
  "IncorrectTokenProgramID",
  "TokenProgramNotProvided",
  "SwapNotSupported",
  "ExactOutAmountNotMatched",
  "SourceAndDestinationMintCannotBeTheSame",
  "InvalidMint",
  "InvalidProgramAuthority",
  "InvalidOutputTokenAccount",
  "InvalidFeeWallet",
  "InvalidAuthority",
  "InsufficientFunds",
  "InvalidTokenAccount",
  "BondingCurveAlreadyCompleted",
];

/** Name of a Jupiter v6 custom error code, where the IDL lists it. */
export function jupiterErrorName(code: number): string | undefined {
  return code >= 6000 ? JUPITER_V6_ERRORS[code - 6000] : undefined;
}
