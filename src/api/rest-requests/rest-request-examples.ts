/**
 * An example of every REST request field, by JSON name, for the API reference (mainnet's SOL and
 * USDC, a wallet, amounts in base units; a name is the same kind of value on every route). The
 * API reference test sends each example to the real service and checks that it is not refused by
 * name (test/server/api-reference-requests.test.ts). Also the words of the Jupiter names the
 * contract does not model.
 */
const SOL = "So11111111111111111111111111111111111111112";
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const WALLET = "jdocuPgEAjMfihABsPgKEvYtsmMzjUHeq9LX4Hvs7f3";
const OTHER_WALLET = "HGcCw9mD6zDQBXK7h3DyuzeYXMUzkUUZUenJunDPFqv1";
const TOKEN_ACCOUNT = "52trNeiedksDRPhZaNq8vpuL7YJab3hksHGgdqrfMJJr";
const POOL = "58oQChx4yWmvKdwLLZzBi4ChoCc2fqCUWBkwMihLYQo2";
const ORDER_ACCOUNT = "6fe8ByaiFHisjnYnH5qdpyiNtkn89mMBQUemRkVmKhro";
const REQUEST_ID = "0e6f6f23-5127-464f-8704-19d5a9209e3a";
/** A wire-format v0 transaction (a 0.001 SOL transfer from WALLET, its signature slot zero-filled): the form, not one swapd issued. */
const TRANSACTION =
  "AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACAAQABAwrsAhWzTDt8lE+KOND7l5F1l+AGosYESC5zchQ4ZfpW8bqCnlygh8kU8mAdFMtauqRt4LjSgtqT2q8ObE8QHhIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQICAAEMAgAAAEBCDwAAAAAAAA==";

const QUOTE = {
  inputMint: SOL,
  inAmount: "1000000000",
  outputMint: USDC,
  outAmount: "149475897",
  otherAmountThreshold: "148728517",
  swapMode: "ExactIn",
  slippageBps: 50,
  platformFee: null,
  priceImpactPct: "0.000957302535",
  routePlan: [
    {
      swapInfo: {
        ammKey: POOL,
        label: "Raydium",
        inputMint: SOL,
        outputMint: USDC,
        inAmount: "1000000000",
        outAmount: "149475897",
        feeAmount: "2500000",
        feeMint: SOL,
      },
      percent: 100,
      bps: 10000,
    },
  ],
  contextSlot: 383000000,
  timeTaken: 0.0021,
};

export const REQUEST_EXAMPLES: Readonly<Record<string, unknown>> = {
  // Quote and order parameters.
  inputMint: SOL,
  outputMint: USDC,
  amount: "1000000000",
  slippageBps: 50,
  swapMode: "ExactIn",
  dexes: ["Raydium", "Whirlpool"],
  excludeDexes: ["Meteora DLMM"],
  restrictIntermediateTokens: true,
  onlyDirectRoutes: false,
  asLegacyTransaction: false,
  platformFeeBps: 20,
  maxAccounts: 64,
  taker: WALLET,
  feeAccount: TOKEN_ACCOUNT,
  mode: "fast",
  payer: WALLET,
  autoSlippage: true,
  wrapAndUnwrapSol: true,
  destinationTokenAccount: TOKEN_ACCOUNT,
  nativeDestinationAccount: OTHER_WALLET,
  blockhashSlotsToExpiry: 150,
  tipAmount: "10000",
  computeUnitPricePercentile: "veryHigh",
  forJitoBundle: false,
  priorityFeeLamports: "5000",
  priorityLevel: "high",
  maxLamports: "5000000",
  receiver: OTHER_WALLET,
  referralAccount: OTHER_WALLET,
  referralFee: 50,
  jitoTipLamports: "10000",
  broadcastFeeType: "exactFee",
  excludeRouters: ["dflow"],
  accounts: [POOL],
  // Swap requests (v1).
  userPublicKey: WALLET,
  quoteResponse: QUOTE,
  useSharedAccounts: true,
  trackingAccount: OTHER_WALLET,
  prioritizationFeeLamports: { priorityLevelWithMaxLamports: { priorityLevel: "veryHigh", maxLamports: 1000000 } },
  dynamicComputeUnitLimit: true,
  skipUserAccountsRpcCalls: false,
  dynamicSlippage: false,
  computeUnitPriceMicroLamports: "1000",
  useTokenLedger: false,
  // Execute.
  signedTransaction: TRANSACTION,
  requestId: REQUEST_ID,
  lastValidBlockHeight: "300000000",
  // Markets.
  address: POOL,
  addresses: [POOL],
  pubkey: POOL,
  // Trigger orders (v1).
  maker: WALLET,
  params: { makingAmount: "100000000", takingAmount: "20000000" },
  makingAmount: "100000000",
  takingAmount: "20000000",
  expiredAt: "2208988800",
  feeBps: 10,
  computeUnitPrice: "auto",
  inputTokenProgram: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
  outputTokenProgram: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
  order: ORDER_ACCOUNT,
  orders: [ORDER_ACCOUNT],
  user: WALLET,
  orderStatus: "active",
  page: 1,
  includeFailedTx: false,
  // Nonce orders (v2).
  kind: "single",
  takeProfit: { price: "200.5", minOutAmount: "190000000" },
  stopLoss: { price: "120", minOutAmount: "110000000" },
  trailing: { trailBps: 500, minOutAmount: "100000000" },
  price: "200.5",
  minOutAmount: "190000000",
  trailBps: 500,
  nonceAccount: OTHER_WALLET,
  routesPerLeg: 1,
  orderId: REQUEST_ID,
  signedTransactions: [TRANSACTION],
  // Nonce order groups (OTOCO, DCA), expiry, prices in a stablecoin.
  entry: { price: "140", minOutAmount: "6900000" },
  dca: { rounds: 4, intervalSeconds: 86400, minOutAmount: "1" },
  nonceAccounts: [OTHER_WALLET],
  priceMint: USDC,
  // An edit: the order replaced and its signed cancel.
  replacesOrderId: REQUEST_ID,
  replacedCancel: TRANSACTION,
  /** A month from when the document is made (an expiry must be within a year). */
  expiresAt: String(Math.floor(Date.now() / 1000) + 30 * 86_400),
  pageSize: 50,
  pageToken: "WyIyMDI2LTAxLTAxVDAwOjAwOjAwLjAwMFoiLCIwZTZmNmYyMy01MTI3LTQ2NGYtODcwNC0xOWQ1YTkyMDllM2EiXQ",
};

/** The words of the Jupiter names a REST request accepts that the contract does not model. */
export const UNMODELLED_NAMES: Readonly<Record<string, string>> = {
  nativeDestinationAccount: "Not supported on /swap/v1 (refused, 400, when given; V2 instructions only): use /swap/v2/build's.",
};
